import { beforeAll, describe, expect, it } from 'vitest';
import { METRIC, METRICS_NAMESPACE } from '../../shared/metric-names';
import { type SynthesizedStack, synthStack } from './synth-stack';
import { at, type JsonObject, resourcesOf } from './template';

/**
 * Background work that fails without a Lambda error (docs/runbook.md "Purge and erasure"):
 * purge continuations, the daily erasure, and daily jobs whose tick could not run.
 */
let s: SynthesizedStack;
beforeAll(() => {
  s = synthStack({ retentionDays: 10 });
});

const alarm = (id: string): JsonObject => {
  const found = Object.entries(resourcesOf(s.template, 'AWS::CloudWatch::Alarm')).find(([logicalId]) =>
    logicalId.startsWith(`Monitoring${id}`),
  );
  expect(found, id).toBeDefined();
  return found![1].Properties;
};
const queueName = (queue: Parameters<SynthesizedStack['idOf']>[0]) => ({ 'Fn::GetAtt': [s.idOf(queue), 'QueueName'] });
const arnOf = (construct: Parameters<SynthesizedStack['idOf']>[0]) => ({ 'Fn::GetAtt': [s.idOf(construct), 'Arn'] });

describe('purge and erasure alarms', () => {
  it('purge queue age above one worker run plus the visibility timeout (15 + 90 minutes)', () => {
    expect(alarm('PurgeQueueAge')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [{ Name: 'QueueName', Value: queueName(s.stack.purgeQueue.queue) }],
      Threshold: 15 * 60 + 6 * 15 * 60,
      EvaluationPeriods: 2,
    });
  });

  it('any purge dead letter, and three failed purge steps within an hour (the EMF metric of the purge worker)', () => {
    expect(alarm('PurgeDeadLetters')).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: queueName(s.stack.purgeQueue.deadLetterQueue) }],
      Threshold: 1,
    });
    expect(alarm('PurgeStepsFailed')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: METRIC.purgeStepsFailed,
      Statistic: 'Sum',
      Period: 3600,
      Threshold: 3,
    });
  });

  it('erasure backlog at retention + 2 days (the gauge the daily erasure publishes)', () => {
    expect(alarm('ErasureBacklog')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: METRIC.erasureBacklogDays,
      Statistic: 'Maximum',
      Period: 86_400,
      Threshold: 12,
    });
  });
});

describe('daily jobs keep the ticks they could not run', () => {
  it('each rule target has a dead-letter queue and a retry policy; each function an async dead-letter target', () => {
    const deadLetters = arnOf(s.stack.jobDeadLetters.queue);
    for (const [rule, fn] of [
      [s.stack.schedule.rule, s.stack.functions.reminders.fn],
      [s.stack.erasureSchedule.rule, s.stack.functions.erasure.fn],
    ] as const) {
      const target = (at(s.template.toJSON(), 'Resources', s.idOf(rule), 'Properties', 'Targets') as JsonObject[])[0];
      expect(target).toMatchObject({
        Arn: arnOf(fn),
        DeadLetterConfig: { Arn: deadLetters },
        RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 7200 },
      });
      expect(at(s.template.toJSON(), 'Resources', s.idOf(fn), 'Properties', 'DeadLetterConfig', 'TargetArn')).toEqual(deadLetters);
    }
    expect(alarm('JobDeadLetters')).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: queueName(s.stack.jobDeadLetters.queue) }],
      Threshold: 1,
    });
    // EventBridge may send to the queue (a queue policy for the two rules)
    const policies = Object.values(resourcesOf(s.template, 'AWS::SQS::QueuePolicy')).filter((p) =>
      JSON.stringify(p.Properties.Queues).includes(s.idOf(s.stack.jobDeadLetters.queue)),
    );
    expect(JSON.stringify(policies)).toContain('events.amazonaws.com');
  });
});
