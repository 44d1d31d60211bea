import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildStacks } from './app-stacks';

/**
 * CDK entry (cdk.json). Settings come from context, e.g.
 *   npx cdk deploy --all -c mailFrom=no-reply@example.org -c sesDomain=example.org -c emailAllowlist=a@x.org
 */
const app = new App();
const context = (key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  return value === undefined || value === null || value === '' ? undefined : String(value);
};

buildStacks(app, {
  account: process.env.CDK_DEFAULT_ACCOUNT,
  region: process.env.CDK_DEFAULT_REGION,
  props: {
    mailFrom: context('mailFrom'),
    sesDomain: context('sesDomain'),
    emailAllowlist: context('emailAllowlist'),
    retentionDays: context('retentionDays') ? Number(context('retentionDays')) : undefined,
    auditRetentionDays: context('auditRetentionDays') ? Number(context('auditRetentionDays')) : undefined,
  },
});

// cdk-nag v3 runs as a policy-validation plugin: synth fails on any unacknowledged error.
// Accepted findings are acknowledged next to the resource they concern, each with its reason.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
