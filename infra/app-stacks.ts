import { Annotations, type App, Stack } from 'aws-cdk-lib';
import { CloudFrontAccessLogs } from './constructs/cloudfront-access-logs';
import { EdgeSecurityStack } from './edge-stack';
import { type CareerProgramStackProps, CareerProgramStack } from './stack';

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
export function buildStacks(app: App, options: { account?: string; region?: string; props?: CareerProgramStackProps }): AppStacks {
  const { account, region } = options;
  const linked = Boolean(account);
  const edge = new EdgeSecurityStack(app, 'CareerProgramEdge', {
    description: 'Career program: WAF web ACL for CloudFront (us-east-1)',
    env: { account, region: 'us-east-1' },
    crossRegionReferences: linked,
  });
  const main = new CareerProgramStack(app, 'CareerProgramStack', {
    description: 'Career program: SPA, HTTP API, Lambdas, DynamoDB, SES',
    ...options.props,
    webAclArn: linked ? edge.webAcl.attrArn : undefined,
    env: { account, region },
    crossRegionReferences: linked,
  });
  if (!linked) Annotations.of(main).addWarningV2('career:edge-unlinked', 'No AWS account: the WAF web ACL and CloudFront access logs are not linked in this synth.');

  let logs: Stack | undefined;
  if (linked && region !== 'us-east-1') {
    logs = new Stack(app, 'CareerProgramEdgeLogs', {
      description: 'Career program: CloudFront access logs without query strings (us-east-1)',
      env: { account, region: 'us-east-1' },
      crossRegionReferences: true,
    });
    new CloudFrontAccessLogs(logs, 'CloudFrontLogs', { distributionArn: main.distributionArn, bucketArn: main.site.logBucket.bucketArn });
    logs.addStackDependency(main);
  }
  return { edge, main, logs };
}
