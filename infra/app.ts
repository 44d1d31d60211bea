import { App, Validations } from 'aws-cdk-lib';
import { buildStacks } from './app-stacks';
import { nagPacks } from './nag-packs';
import { siteDirectory } from './site-directory';
import { loadStageSettings } from './stages/load-settings';
import { settingsReport, StageSettingsError } from './stages/resolve-settings';
import { stackOptions } from './stages/stack-options';

/**
 * CDK entry (cdk.json). The deploy settings of each stage are code: infra/stages/<stage>.ts
 * (`-c stage=dev|prod`, prod when unset), checked by infra/stages/stage-file.ts. A flag
 * `-c <name>=<value>` overrides one setting for one deploy; `-c settingsFile=<path>` reads the
 * stage's settings from another file. The synth prints every value it uses and where it came
 * from, and refuses a prod deploy that lacks a setting or carries a placeholder.
 */
const app = new App();

const resolved = await loadStageSettings(app.node.getAllContext() as Record<string, unknown>).catch((error: unknown) => {
  if (!(error instanceof StageSettingsError)) throw error;
  // one message naming every setting at fault, without a stack trace around it
  console.error(error.message);
  process.exit(1);
});
console.error(settingsReport(resolved));

const { blockedIpSetArn, props } = stackOptions(resolved);
buildStacks(app, {
  account: process.env.CDK_DEFAULT_ACCOUNT,
  region: process.env.CDK_DEFAULT_REGION,
  blockedIpSetArn,
  // built by cdk.json's "build" before every synthesis (infra/build-site.ts)
  props: { ...props, siteDir: siteDirectory() },
});

// cdk-nag v3 runs as policy-validation plugins (infra/nag-packs.ts).
Validations.of(app).addPlugins(...nagPacks(app));
