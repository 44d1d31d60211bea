import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildStacks } from '../../infra/app-stacks';
import { type StageName, STAGES } from '../../infra/stage';
import { asObject, maybeAt, resourcesOf } from './template';
import { TEST_API_ORIGIN } from './synth-stack';

/**
 * docs/runbook.md#log-retention: every log group of every stack of the app (the main stack in
 * either region, the us-east-1 edge and companion stacks) keeps logs for the stage's retention,
 * and every Lambda, aws-cdk-lib's own providers included (trigger, cross-region references,
 * bucket deployment, auto-delete), logs into one of them: a Lambda without a group of its own
 * would log into /aws/lambda/<name>, kept forever.
 */
const siteDir = mkdtempSync(path.join(tmpdir(), 'site-'));
writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>test</title>');

const appStacks = (region: string, stage: StageName): Stack[] => {
  const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), {
    account: '123456789012',
    region,
    props: { siteDir, stage, apiCustomDomain: TEST_API_ORIGIN },
  });
  return [stacks.main, stacks.edge, ...(stacks.logs ? [stacks.logs] : [])];
};

describe.each([
  ['eu-west-1', 'prod'],
  ['us-east-1', 'dev'],
] as const)('log retention, main stack in %s, %s', (region, stage) => {
  const templates = appStacks(region, stage).map((stack) => ({ name: stack.stackName, template: Template.fromStack(stack) }));
  const days = STAGES[stage].logRetention;

  it("every log group of every stack keeps logs for the stage's retention", () => {
    const seen: string[] = [];
    for (const { name, template } of templates) {
      for (const [id, group] of Object.entries(resourcesOf(template, 'AWS::Logs::LogGroup'))) {
        expect(group.Properties.RetentionInDays, `${name} ${id}`).toBe(days);
        seen.push(`${name} ${id}`);
      }
    }
    expect(seen.length).toBeGreaterThan(0);
  });

  it('every Lambda of every stack logs into a log group of its stack', () => {
    for (const { name, template } of templates) {
      const groups = Object.keys(resourcesOf(template, 'AWS::Logs::LogGroup'));
      for (const [id, fn] of Object.entries(resourcesOf(template, 'AWS::Lambda::Function'))) {
        const logGroup = maybeAt(fn.Properties, 'LoggingConfig', 'LogGroup');
        expect(logGroup, `${name} ${id} has no log group of its own`).toBeDefined();
        expect(groups, `${name} ${id}`).toContain(asObject(logGroup, `${id}.LoggingConfig.LogGroup`).Ref);
      }
    }
  });
});
