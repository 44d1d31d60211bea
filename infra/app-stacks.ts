import { Annotations, type App, Stack } from 'aws-cdk-lib';
import { CloudFrontAccessLogs } from './constructs/cloudfront-access-logs';
import { addCloudFrontAlarms } from './constructs/edge-alarms';
import { createAlarmTopics } from './constructs/alarm-severity';
import { ProviderLogGroups } from './constructs/provider-log-groups';
import { originCertificateExpiryAlarm, wafBlocksAlarm } from './constructs/monitoring';
import { EdgeSecurityStack } from './edge-stack';
import { type CareerProgramStackProps, CareerProgramStack } from './stack';
import { stackNames } from './stack-names';
import { stageSettings } from './stage';

export interface AppStacks {
  edge: EdgeSecurityStack;
  main: CareerProgramStack;
  /** Only when linked and the main stack is not in us-east-1. */
  logs?: Stack;
}

/**
 * The app's stacks. CloudFront's web ACL and log delivery live in us-east-1: small companion
 * stacks, linked by cross-region references. Those need a known account: every deploy has one;
 * an offline synth without credentials builds the main stack unlinked and says so.
 */
export function buildStacks(
  app: App,
  options: {
    account?: string;
    region?: string;
    props?: CareerProgramStackProps;
    /** The operator's WAF IP set to block (infra/edge-stack.ts). */
    blockedIpSetArn?: string;
  },
): AppStacks {
  const { account, region } = options;
  const linked = Boolean(account);
  // prod keeps the established stack names; dev gets its own, torn down whole (infra/stage.ts)
  const settings = stageSettings(options.props?.stage);
  const stage = settings.name;
  const { terminationProtection } = settings;
  const names = stackNames(stage);
  const edge = new EdgeSecurityStack(app, names.edge, {
    description: 'Career program: WAF web ACL for CloudFront (us-east-1)',
    env: { account, region: 'us-east-1' },
    crossRegionReferences: linked,
    terminationProtection,
    stage,
    logRetention: settings.logRetention,
    blockedIpSetArn: options.blockedIpSetArn,
  });
  // WAF metrics stay in us-east-1: the blocked-requests alarm lives there, with its own topics.
  const edgeTopics = createAlarmTopics(edge, {
    displayName: 'Career program edge alarms',
    alarmEmail: options.props?.alarmEmail,
    pageEmail: options.props?.pageEmail,
  });
  wafBlocksAlarm(edge, 'WafBlocks', {
    webAclMetricName: edge.metricNames.webAcl,
    topics: edgeTopics,
    runbookUrl: options.props?.runbookUrl,
  });
  // CloudFront's client certificate for the API's domain is imported into ACM in us-east-1: nothing renews it.
  const originCertificate = options.props?.apiCustomDomain?.clientCertificateArn;
  if (originCertificate)
    originCertificateExpiryAlarm(edge, 'OriginClientCertificateExpiry', {
      certificateArn: originCertificate,
      topics: edgeTopics,
      runbookUrl: options.props?.runbookUrl,
    });
  const main = new CareerProgramStack(app, names.main, {
    description: `Career program (${stage}): SPA, HTTP API, Lambdas, DynamoDB, SES`,
    ...options.props,
    webAclArn: linked ? edge.webAcl.attrArn : undefined,
    env: { account, region },
    crossRegionReferences: linked,
    terminationProtection,
  });
  if (!linked)
    Annotations.of(main).addWarningV2(
      'career:edge-unlinked',
      'No AWS account: the WAF web ACL and CloudFront access logs are not linked in this synth.',
    );

  let logs: Stack | undefined;
  if (linked && region !== 'us-east-1') {
    logs = new Stack(app, names.edgeLogs, {
      description: 'Career program: CloudFront access logs without query strings, CloudFront alarms (us-east-1)',
      env: { account, region: 'us-east-1' },
      crossRegionReferences: true,
      terminationProtection,
    });
    new CloudFrontAccessLogs(logs, 'CloudFrontLogs', { distributionArn: main.distributionArn, bucketArn: main.site.logBucket.bucketArn });
    logs.addStackDependency(main);
  }
  // CloudFront's metrics are in us-east-1: its alarms go to the edge topic from the companion
  // stack, or live in the main stack with its topics when that is in us-east-1 itself.
  if (linked)
    addCloudFrontAlarms(logs ?? main, {
      distribution: main.site.distribution,
      topics: logs ? edgeTopics : main.monitoring.topics,
      runbookUrl: options.props?.runbookUrl,
    });
  // the edge stacks' cross-region reference providers log with the stage's retention too
  for (const stack of [edge, logs]) if (stack) new ProviderLogGroups(stack, 'ProviderLogs', { retention: settings.logRetention });
  return { edge, main, logs };
}
