import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildStacks } from '../../infra/app-stacks';
import { ALARM_SEVERITY, SEVERITIES, severityOf } from '../../infra/constructs/alarm-severity';
import { section } from './doc-commands';
import { asString, at, resourceList, resourcesOf } from './template';
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

/** The alarms of a stack by logical id. */
const alarmsOf = (template: Template) =>
  Object.entries(resourcesOf(template, 'AWS::CloudWatch::Alarm')).map(([id, resource]) => ({ id, props: resource.Properties }));
const sectionOf = (props: Record<string, unknown>) => asString(props.AlarmDescription, 'AlarmDescription').split('#').pop()!;
const [main, , companion] = templates.map((t) => t.template);

describe('signals', () => {
  it('every scheduled job has a heartbeat: no invocation over more than its interval alarms, missing data breaching', () => {
    const rules = resourceList(main, 'AWS::Events::Rule');
    expect(rules.length).toBeGreaterThanOrEqual(3);
    for (const rule of rules) {
      const target = asString(at(rule.Properties, 'Targets', 0, 'Arn', 'Fn::GetAtt', 0), 'target');
      const schedule = asString(rule.Properties.ScheduleExpression, 'ScheduleExpression');
      // cron(minute hour …): every hour when the hour is `*`, else once a day
      const intervalSeconds = schedule.split(' ')[1] === '*' ? 3600 : 86_400;
      const heartbeats = alarmsOf(main).filter(
        ({ props }) => props.MetricName === 'Invocations' && JSON.stringify(props.Dimensions).includes(`"${target}"`),
      );
      expect(heartbeats, `${target} (${schedule})`).toHaveLength(1);
      const alarm = heartbeats[0].props;
      expect(alarm).toMatchObject({
        Statistic: 'Sum',
        Threshold: 1,
        ComparisonOperator: 'LessThanThreshold',
        TreatMissingData: 'breaching',
      });
      // every period of the window empty, and the window longer than the interval: a healthy run always lands in it
      expect(alarm.DatapointsToAlarm).toBe(alarm.EvaluationPeriods);
      expect(Number(alarm.Period) * Number(alarm.EvaluationPeriods)).toBeGreaterThan(intervalSeconds);
      expect(Number(alarm.Period) * Number(alarm.EvaluationPeriods)).toBeLessThanOrEqual(intervalSeconds + 6 * 3600);
      expect(sectionOf(alarm)).toBe('schedule-stopped');
    }
  });

  it('SES warns (ticket) at 2 % bounces and 0.05 % complaints, below the pages at 5 % and 0.1 %', () => {
    const ses = (metric: string) =>
      alarmsOf(main)
        .filter(({ props }) => props.MetricName === metric && props.Dimensions === undefined)
        .map(({ props }) => [Number(props.Threshold), severityOf(sectionOf(props))])
        .sort();
    expect(ses('Reputation.BounceRate')).toEqual([
      [0.02, 'ticket'],
      [0.05, 'page'],
    ]);
    expect(ses('Reputation.ComplaintRate')).toEqual([
      [0.0005, 'ticket'],
      [0.001, 'page'],
    ]);
  });

  it("the stream's iterator age pages well before the stream's 24 hours run out, and is a ticket at an hour", () => {
    const ages = alarmsOf(main)
      .filter(({ props }) => props.MetricName === 'IteratorAge')
      .map(({ props }) => ({
        severity: severityOf(sectionOf(props)),
        // the longest the age can be when the alarm fires: its threshold plus its evaluation window
        hours: (Number(props.Threshold) / 1000 + Number(props.Period) * Number(props.EvaluationPeriods)) / 3600,
      }));
    const page = ages.filter((a) => a.severity === 'page');
    expect(page).toHaveLength(1);
    // at least 12 of the 24 hours left to get the aggregator reading again
    expect(page[0].hours).toBeLessThanOrEqual(12);
    const ticket = ages.filter((a) => a.severity === 'ticket');
    expect(ticket).toHaveLength(1);
    expect(ticket[0].hours).toBeLessThan(page[0].hours);
    expect(ticket[0].hours).toBeGreaterThanOrEqual(1);
  });

  it("CloudFront's origin latency is alarmed where CloudFront's metrics are, with the distribution's additional metrics on", () => {
    const latency = alarmsOf(companion).filter(({ props }) => props.MetricName === 'OriginLatency');
    expect(latency).toHaveLength(1);
    expect(latency[0].props).toMatchObject({ Namespace: 'AWS/CloudFront', ExtendedStatistic: 'p95', Threshold: 3000 });
    expect(latency[0].props.Dimensions).toContainEqual({ Name: 'Region', Value: 'Global' });
    const subscriptions = resourceList(companion, 'AWS::CloudFront::MonitoringSubscription');
    expect(subscriptions).toHaveLength(1);
    expect(at(subscriptions[0].Properties, 'MonitoringSubscription', 'RealtimeMetricsSubscriptionConfig')).toEqual({
      RealtimeMetricsSubscriptionStatus: 'Enabled',
    });
    // the same distribution the alarm watches
    const distribution = (latency[0].props.Dimensions as Array<{ Name: string; Value: unknown }>).find((d) => d.Name === 'DistributionId');
    expect(subscriptions[0].Properties.DistributionId).toEqual(distribution!.Value);
  });

  it("a worker's errors (a timeout among them, which its queue or next run retries) never page, as the runbook says", () => {
    const worker = section(RUNBOOK, '### Worker timed out');
    expect(worker).toMatch(/a single timeout needs nothing/);
    const timedOut = alarmsOf(main).filter(({ props }) => props.Namespace === 'CareerProgram/Timeouts');
    expect(timedOut.length).toBeGreaterThanOrEqual(4);
    for (const { props } of timedOut) {
      const worker = String(props.MetricName);
      const errors = alarmsOf(main).find(({ id }) => id.startsWith(`Monitoring${worker.charAt(0).toUpperCase()}${worker.slice(1)}Errors`));
      expect(errors, worker).toBeDefined();
      expect(severityOf(sectionOf(errors!.props)), worker).toBe('ticket');
    }
  });
});
