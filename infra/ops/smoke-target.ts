/**
 * What the smoke script checks, found from the deployed stacks (CloudFormation, in the region
 * the AWS profile names; the edge stack in us-east-1) or given for the local runtime.
 */
import {
  CloudFormationClient,
  DescribeStacksCommand,
  paginateListStackResources,
  type StackResourceSummary,
} from '@aws-sdk/client-cloudformation';
import { stackNames } from '../stack-names';

/**
 * Logical-ID prefixes of the alarm topics (a ticket topic `…AlarmTopic…` and a page topic
 * `…AlarmTopicPage…` in each): the Monitoring construct's in the main stack, the edge stack's own
 * (infra/app-stacks.ts); the deploy rehearsal checks them on the templates.
 */
export const ALARM_TOPIC_IDS = { main: 'MonitoringAlarmTopic', edge: 'AlarmTopic' } as const;

export interface AlarmTopic {
  arn: string;
  region: string;
}

export interface SmokeTarget {
  /** Where learners reach the app: the CloudFront URL, or the local server. */
  siteUrl: string;
  /** The table the throwaway accounts are written to (TABLE_NAME of the domain code). */
  tableName?: string;
  /** Cloud only: the API's own execute-api address, which must refuse a direct call. */
  directApiUrl?: string;
  /** Cloud only: the alarm topics, each needing a confirmed subscription. */
  alarmTopics: AlarmTopic[];
}

const stackResources = async (client: CloudFormationClient, stackName: string): Promise<StackResourceSummary[]> => {
  const out: StackResourceSummary[] = [];
  for await (const page of paginateListStackResources({ client }, { StackName: stackName }))
    out.push(...(page.StackResourceSummaries ?? []));
  return out;
};

const topicsOf = (resources: StackResourceSummary[], logicalIdPrefix: string, region: string): AlarmTopic[] =>
  resources
    .filter((r) => r.ResourceType === 'AWS::SNS::Topic' && r.LogicalResourceId?.startsWith(logicalIdPrefix) && r.PhysicalResourceId)
    .map((r) => ({ arn: r.PhysicalResourceId!, region }));

/** The stacks of `-c stage=<stage>` as infra/app-stacks.ts names them. */
export async function cloudTarget(stage: string | undefined): Promise<SmokeTarget> {
  const names = stackNames(stage);
  const mainStack = names.main;
  const main = new CloudFormationClient({});
  const region = await main.config.region();
  const described = await main.send(new DescribeStacksCommand({ StackName: mainStack }));
  const outputs = new Map((described.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
  const siteUrl = outputs.get('SiteUrl');
  const tableName = outputs.get('TableName');
  if (!siteUrl || !tableName) throw new Error(`${mainStack} in ${region} has no SiteUrl/TableName output: is it deployed here?`);
  const resources = await stackResources(main, mainStack);
  const api = resources.find((r) => r.ResourceType === 'AWS::ApiGatewayV2::Api')?.PhysicalResourceId;
  if (!api) throw new Error(`${mainStack} has no HTTP API resource`);
  const edge = new CloudFormationClient({ region: 'us-east-1' });
  const edgeResources = await stackResources(edge, names.edge);
  return {
    siteUrl,
    tableName,
    directApiUrl: `https://${api}.execute-api.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`,
    alarmTopics: [...topicsOf(resources, ALARM_TOPIC_IDS.main, region), ...topicsOf(edgeResources, ALARM_TOPIC_IDS.edge, 'us-east-1')],
  };
}
