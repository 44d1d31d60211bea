import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildStacks } from '../../infra/app-stacks';
import { ALARM_SEVERITY, SEVERITIES, severityOf } from '../../infra/constructs/alarm-severity';
import { asString, resourceList, resourcesOf } from './template';
import { TEST_API_ORIGIN } from './synth-stack';

/**
 * Page or ticket (docs/runbook.md#severities): every alarm of every stack (main, edge, the
 * us-east-1 companion) notifies exactly the topic of its one severity, set in one table that the
 * runbook's table repeats.
 */
const siteDir = mkdtempSync(path.join(tmpdir(), 'site-'));
writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>test</title>');
const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), {
  account: '123456789012',
  region: 'eu-west-1',
  props: { siteDir, alarmEmail: 'ops@example.com', pageEmail: 'pager@example.com', apiCustomDomain: TEST_API_ORIGIN },
});
const all: Stack[] = [stacks.main, stacks.edge, stacks.logs!];
const templates = all.map((stack) => ({ stack, template: Template.fromStack(stack) }));
const RUNBOOK = readFileSync(path.resolve(import.meta.dirname, '../../docs/runbook.md'), 'utf8');

/** Logical id of each stack's topic per severity (the ticket topic keeps the single topic's id). */
const topicIds = (template: Template) => {
  const ids = Object.keys(resourcesOf(template, 'AWS::SNS::Topic'));
  return { page: ids.filter((id) => id.includes('AlarmTopicPage')), ticket: ids.filter((id) => /AlarmTopic(?!Page)/.test(id)) };
};
const topicIdOf = (action: unknown): string => {
  const text = JSON.stringify(action);
  // a topic of the same stack ({ Ref }), or the edge stack's imported into the companion (a cross-region reference)
  return /AlarmTopicPage/.test(text) ? 'page' : /AlarmTopic/.test(text) ? 'ticket' : text;
};

describe('alarm severities', () => {
  it('every alarm of every stack notifies the one topic of its severity, on ALARM and on OK', () => {
    const seen = new Set<string>();
    for (const { stack, template } of templates) {
      for (const { Properties: alarm } of resourceList(template, 'AWS::CloudWatch::Alarm')) {
        const section = asString(alarm.AlarmDescription, 'AlarmDescription').split('#').pop()!;
        seen.add(section);
        const severity = severityOf(section);
        for (const actions of [alarm.AlarmActions, alarm.OKActions]) {
          expect(actions, `${stack.stackName} ${section}`).toHaveLength(1);
          expect(topicIdOf((actions as unknown[])[0]), `${stack.stackName} ${section}`).toBe(severity);
        }
      }
    }
    // no stale entry: every severity in the table belongs to an alarm that exists
    expect([...seen].sort()).toEqual(Object.keys(ALARM_SEVERITY).sort());
  });

  it('each stack with alarms has a page and a ticket topic; alarmEmail subscribes to both, pageEmail to the page topic only', () => {
    for (const { template } of [templates[0], templates[1]]) {
      const ids = topicIds(template);
      expect(ids.page).toHaveLength(1);
      expect(ids.ticket).toHaveLength(1);
      const subscriptions = resourceList(template, 'AWS::SNS::Subscription', { Properties: { Protocol: 'email' } }).map(
        (sub) => `${String(sub.Properties.Endpoint)} → ${topicIdOf(sub.Properties.TopicArn)}`,
      );
      expect(subscriptions.sort()).toEqual(['ops@example.com → page', 'ops@example.com → ticket', 'pager@example.com → page']);
    }
  });

  it('an alarm whose runbook section has no severity fails the synth, naming the table', () => {
    expect(() => severityOf('no-such-section')).toThrow(/ALARM_SEVERITY \(infra\/constructs\/alarm-severity\.ts\)/);
  });

  it("the runbook's severity table is the configured one", () => {
    const section = RUNBOOK.slice(RUNBOOK.indexOf('## Severities'), RUNBOOK.indexOf('## Alarms'));
    const rows = [...section.matchAll(/^\| \[[^\]]+\]\(#([a-z0-9-]+)\) \| (\w+) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(rows)).toEqual(ALARM_SEVERITY);
    expect(rows).toHaveLength(Object.keys(ALARM_SEVERITY).length);
    for (const severity of SEVERITIES) expect(section).toContain(`**${severity}**`);
  });
});
