import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { CareerProgramStack } from './stack';
import { stageSettings } from './stage';

/**
 * CDK entry (cdk.json). Settings come from context, e.g.
 *   npx cdk deploy -c mailFrom=no-reply@example.org -c sesDomain=example.org -c emailAllowlist=a@x.org
 *   npx cdk deploy -c stage=dev -c alarmEmail=ops@example.org -c runbookUrl=https://…/docs/runbook.md
 *   (reminders: -c reminderSendRate=<SES emails/s> -c reminderWorkers=<workers at once>)
 */
const app = new App();
const context = (key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  return value === undefined || value === null || value === '' ? undefined : String(value);
};

// -c stage=dev|prod (infra/stage.ts): prod keeps the established stack name; dev gets its own.
const stage = stageSettings(context('stage')).name;
new CareerProgramStack(app, stage === 'prod' ? 'CareerProgramStack' : 'CareerProgramStack-dev', {
  description: `Career program (${stage}): SPA, HTTP API, Lambdas, DynamoDB, SES`,
  stage,
  alarmEmail: context('alarmEmail'),
  runbookUrl: context('runbookUrl'),
  webAclName: context('webAclName'),
  mailFrom: context('mailFrom'),
  sesDomain: context('sesDomain'),
  emailAllowlist: context('emailAllowlist'),
  retentionDays: context('retentionDays') ? Number(context('retentionDays')) : undefined,
  // raise with SES's account send rate: -c reminderSendRate=200 -c reminderWorkers=10
  reminderSendRate: context('reminderSendRate') ? Number(context('reminderSendRate')) : undefined,
  reminderWorkers: context('reminderWorkers') ? Number(context('reminderWorkers')) : undefined,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

// cdk-nag v3 runs as a policy-validation plugin: synth fails on any unacknowledged error.
// Accepted findings are acknowledged next to the resource they concern, each with its reason.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
