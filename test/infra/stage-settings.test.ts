import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStacks } from '../../infra/app-stacks';
import { loadStageSettings } from '../../infra/stages/load-settings';
import { type ResolvedStage, resolveStage, settingsReport, StageSettingsError } from '../../infra/stages/resolve-settings';
import { SETTINGS } from '../../infra/stages/stage-file';
import { stackOptions } from '../../infra/stages/stack-options';
import { FILLED_PROD, filledProdFile, writeFilledProdFile } from './filled-prod-settings';

/**
 * The stage settings files (infra/stages/): prod refuses to synthesize while a setting it needs is
 * missing or a placeholder, naming each; `-c` overrides the file and the synth says so; dev needs
 * nothing.
 */
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const work = mkdtempSync(path.join(tmpdir(), 'stage-settings-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The settings prod does not do without: a value, or for some an explicit null. */
const PROD_NEEDS = Object.entries(SETTINGS)
  .filter(([, spec]) => spec.prod)
  .map(([name]) => name);

/** The problems resolveStage reports, or [] when it accepts the settings. */
function problemsOf(stage: 'prod' | 'dev', contents: object, context: Record<string, unknown> = {}): string[] {
  try {
    resolveStage(stage, { path: `infra/stages/${stage}.ts`, contents: { stage, ...contents } }, context);
    return [];
  } catch (error) {
    if (!(error instanceof StageSettingsError)) throw error;
    return error.problems;
  }
}
const namesIn = (problems: string[]) => problems.map((problem) => problem.split(':')[0]);

function synthesize(resolved: ResolvedStage): Template {
  const siteDir = mkdtempSync(path.join(work, 'site-'));
  writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>test</title>');
  const { blockedIpSetArn, props } = stackOptions(resolved);
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return Template.fromStack(buildStacks(app, { blockedIpSetArn, props: { ...props, siteDir } }).main);
}

describe('prod settings', () => {
  it('a fresh clone cannot synthesize prod: infra/app.ts exits with one message naming every setting to fill in', async () => {
    expect(PROD_NEEDS).toEqual(
      expect.arrayContaining(['mailFrom', 'alarmEmail', 'runbookUrl', 'sesDomain', 'domainName', 'blockedIpSetArn']),
    );
    // the entry point as the CDK CLI starts it, in an environment with nothing of an operator's
    const failed = await run(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), ['infra/app.ts'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: work, CDK_CONTEXT_JSON: JSON.stringify({ stage: 'prod' }) },
    }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('The prod settings cannot be synthesized (infra/stages/prod.ts):');
    for (const name of PROD_NEEDS) expect(failed?.stderr).toMatch(new RegExp(`^  - ${name}: still a placeholder`, 'm'));
    // no stack trace: the message is the whole answer
    expect(failed?.stderr).not.toMatch(/\n\s+at /);
  });

  it('the filled file synthesizes, from the file', () => {
    const resolved = resolveStage('prod', { path: 'prod.ts', contents: filledProdFile() }, {});
    expect(resolved.values).toMatchObject(FILLED_PROD);
    expect(new Set(Object.values(resolved.sources))).toEqual(new Set(['file']));
    const template = synthesize(resolved);
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'learn.career.test' });
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@career.test' });
  });

  it('a missing setting fails the synth with one message naming each', () => {
    const { mailFrom, alarmEmail, runbookUrl, blockedIpSetArn, apiDomainName, ...rest } = FILLED_PROD;
    expect([mailFrom, alarmEmail, runbookUrl, blockedIpSetArn, apiDomainName]).toHaveLength(5);
    const problems = problemsOf('prod', rest);
    expect(namesIn(problems).sort()).toEqual(
      // the API domain's other three without its name: all or none
      [
        'alarmEmail',
        'apiDomainName',
        'apiDomainName, apiCertificateArn, apiTruststoreUri, originClientCertificateArn',
        'blockedIpSetArn',
        'mailFrom',
        'runbookUrl',
      ].sort(),
    );
    expect(problems).toContain('mailFrom: missing, required in prod — the sender address of every email');
    // a setting prod only needs decided: null is an answer, leaving it out is not
    expect(problems.find((p) => p.startsWith('blockedIpSetArn'))).toContain('a value, or null for none');
    expect(problemsOf('prod', { ...FILLED_PROD, alarmEmail: null })).toEqual([
      'alarmEmail: required in prod, not null — receives every alarm, page and ticket',
    ]);
  });

  it('refuses example-domain and FILL IN values in prod, from the file or a -c flag', () => {
    const problems = problemsOf(
      'prod',
      { ...FILLED_PROD, mailFrom: 'no-reply@example.com', pageEmail: 'pager@ops.example.org' },
      { runbookUrl: 'https://git.example.net/career/blob/main/docs/runbook.md', sesDomain: 'FILL IN: the sender domain' },
    );
    expect(namesIn(problems).sort()).toEqual(['mailFrom', 'pageEmail', 'runbookUrl', 'sesDomain']);
    expect(problems).toContain('mailFrom: an example domain, refused in prod, "no-reply@example.com" — the sender address of every email');
    expect(problemsOf('prod', { ...FILLED_PROD, apiCertificateArn: 'arn:aws:acm:eu-west-1:111122223333:certificate/x' })).toHaveLength(1);
    // dev may send from a placeholder: nobody relies on its mail
    expect(problemsOf('dev', { mailFrom: 'no-reply@example.com' })).toEqual([]);
  });

  it('refuses values of the wrong form, an unknown -c name and a file of another stage', () => {
    expect(problemsOf('prod', { ...FILLED_PROD, alarmEmail: 'ops' }, { reminderWorkers: 'two', mailfrom: 'a@b.test' })).toEqual([
      'reminderWorkers: -c must be a number, got "two"',
      'mailfrom: -c names no setting (infra/stages/stage-file.ts lists them)',
      'alarmEmail: must be an email address, got "ops"',
    ]);
    expect(() => resolveStage('prod', { path: 'dev.ts', contents: { stage: 'dev' } }, {})).toThrow(
      'stage: the file is for stage "dev", not prod',
    );
  });
});

describe('-c overrides', () => {
  it('a -c flag wins over the file for one deploy, and the synth reports it as such', () => {
    const resolved = resolveStage(
      'prod',
      { path: 'infra/stages/prod.ts', contents: filledProdFile() },
      { alarmEmail: 'night-shift@career.test', reminderWorkers: '6', '@aws-cdk/core:checkSecretUsage': true },
    );
    expect(resolved.values).toMatchObject({ alarmEmail: 'night-shift@career.test', reminderWorkers: 6, mailFrom: FILLED_PROD.mailFrom });
    expect(resolved.sources).toMatchObject({ alarmEmail: '-c', reminderWorkers: '-c', mailFrom: 'file' });
    const report = settingsReport(resolved);
    expect(report).toContain('Stage prod: settings from infra/stages/prod.ts');
    expect(report).toMatch(/^ {2}alarmEmail +night-shift@career\.test {2}\[-c\]$/m);
    expect(report).toMatch(/^ {2}reminderWorkers +6 {2}\[-c\]$/m);
    expect(report).toMatch(/^ {2}mailFrom +no-reply@learn\.career\.test {2}\[file\]$/m);
    expect(report).toMatch(/^ {2}pageEmail +\(none\) {2}\[file\]$/m);
    const template = synthesize(resolved);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'night-shift@career.test' });
    expect(template.findResources('AWS::SNS::Subscription', { Properties: { Endpoint: FILLED_PROD.alarmEmail } })).toEqual({});
  });

  it('the rollout and the domain move are settings too: -c apiRollout=all-at-once, previousSiteOrigins', () => {
    const resolved = resolveStage(
      'prod',
      { path: 'infra/stages/prod.ts', contents: { ...filledProdFile(), previousSiteOrigins: 'https://d111111abcdef8.cloudfront.net' } },
      { apiRollout: 'all-at-once' },
    );
    expect(resolved.sources).toMatchObject({ apiRollout: '-c', previousSiteOrigins: 'file' });
    const template = synthesize(resolved);
    const withOrigins = template.findResources('AWS::Lambda::Function', {
      Properties: { Environment: { Variables: { PREVIOUS_SITE_ORIGINS: 'https://d111111abcdef8.cloudfront.net' } } },
    });
    expect(Object.keys(withOrigins)).toHaveLength(4);
    template.hasResourceProperties('AWS::CodeDeploy::DeploymentGroup', {
      DeploymentConfigName: 'CodeDeployDefault.LambdaAllAtOnce',
    });
    expect(namesIn(problemsOf('prod', filledProdFile(), { apiRollout: 'sometimes', previousSiteOrigins: 'http://old.test/' }))).toEqual([
      'apiRollout',
      'previousSiteOrigins',
    ]);
  });

  it('-c settingsFile reads the stage from another file, checked the same way', async () => {
    const file = writeFilledProdFile(work);
    const resolved = await loadStageSettings({ settingsFile: file });
    expect(resolved).toMatchObject({ stage: 'prod', file, values: { mailFrom: FILLED_PROD.mailFrom } });
    await expect(loadStageSettings({ stage: 'dev', settingsFile: file })).rejects.toThrow('stage: the file is for stage "prod", not dev');
  });
});

describe('dev settings', () => {
  it('dev synthesizes with no setting given: its file is enough', async () => {
    const resolved = await loadStageSettings({ stage: 'dev' });
    expect(resolved).toMatchObject({ stage: 'dev', file: 'infra/stages/dev.ts', sources: {} });
    const template = synthesize(resolved);
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: false });
  });
});
