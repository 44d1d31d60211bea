import { Annotations, App, Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { CloudFrontAccessLogs } from './constructs/cloudfront-access-logs';
import { EdgeSecurityStack } from './edge-stack';
import { CareerProgramStack } from './stack';

/**
 * CDK entry (cdk.json). Settings come from context, e.g.
 *   npx cdk deploy --all -c mailFrom=no-reply@example.org -c sesDomain=example.org -c emailAllowlist=a@x.org
 */
const app = new App();
const context = (key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  return value === undefined || value === null || value === '' ? undefined : String(value);
};

const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;
// CloudFront's web ACL and log delivery live in us-east-1: small companion stacks, linked by
// cross-region references (which need a known account: every deploy has one; an offline synth
// without credentials builds the main stack unlinked and says so).
const linked = Boolean(account);
const edge = new EdgeSecurityStack(app, 'CareerProgramEdge', {
  description: 'Career program: WAF web ACL for CloudFront (us-east-1)',
  env: { account, region: 'us-east-1' },
  crossRegionReferences: linked,
});

const main = new CareerProgramStack(app, 'CareerProgramStack', {
  description: 'Career program: SPA, HTTP API, Lambdas, DynamoDB, SES',
  mailFrom: context('mailFrom'),
  sesDomain: context('sesDomain'),
  emailAllowlist: context('emailAllowlist'),
  retentionDays: context('retentionDays') ? Number(context('retentionDays')) : undefined,
  auditRetentionDays: context('auditRetentionDays') ? Number(context('auditRetentionDays')) : undefined,
  webAclArn: linked ? edge.webAcl.attrArn : undefined,
  env: { account, region },
  crossRegionReferences: linked,
});
if (!linked) Annotations.of(main).addWarningV2('career:edge-unlinked', 'No AWS account: the WAF web ACL and CloudFront access logs are not linked in this synth.');

if (linked && region !== 'us-east-1') {
  const logs = new Stack(app, 'CareerProgramEdgeLogs', {
    description: 'Career program: CloudFront access logs without query strings (us-east-1)',
    env: { account, region: 'us-east-1' },
    crossRegionReferences: true,
  });
  new CloudFrontAccessLogs(logs, 'CloudFrontLogs', { distributionArn: main.distributionArn, bucketArn: main.site.logBucket.bucketArn });
  logs.addStackDependency(main);
}

// cdk-nag v3 runs as a policy-validation plugin: synth fails on any unacknowledged error.
// Accepted findings are acknowledged next to the resource they concern, each with its reason.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
