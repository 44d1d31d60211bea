import { Duration, Validations } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** A queue's visibility timeout is this many worker timeouts: AWS's advice for a Lambda event source. */
export const VISIBILITY_TIMEOUTS_PER_WORKER_TIMEOUT = 6;
/** Days a dead-letter queue keeps a message: SQS's maximum, time to inspect and redrive. */
export const DEAD_LETTER_RETENTION_DAYS = 14;

export interface WorkQueueProps {
  /** The worker's timeout: the queue's visibility timeout is six times it (AWS's advice for Lambda). */
  workerTimeout: Duration;
  /** Receives before a message goes to the dead-letter queue. */
  maxReceiveCount?: number;
}

/**
 * A queue of background work with its dead-letter queue and a worker Lambda of bounded
 * concurrency (docs/scale-writes.md). Both queues are public so alarms (queue age, DLQ depth)
 * can be added on them.
 */
export class WorkQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  /** How long a received message stays hidden: a failed try shows again after it. */
  readonly visibilityTimeout: Duration;

  constructor(scope: Construct, id: string, props: WorkQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(DEAD_LETTER_RETENTION_DAYS),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.visibilityTimeout = Duration.seconds(props.workerTimeout.toSeconds() * VISIBILITY_TIMEOUTS_PER_WORKER_TIMEOUT);
    this.queue = new Queue(this, 'Queue', {
      visibilityTimeout: this.visibilityTimeout,
      retentionPeriod: Duration.days(4),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount ?? 5 },
    });
    const itself = 'This queue is itself the dead-letter queue of the work queue beside it';
    Validations.of(this.deadLetterQueue).acknowledge(
      { id: 'AwsSolutions-SQS3', reason: `${itself}; a DLQ of a DLQ would only move the same messages again.` },
      { id: 'Serverless-SQSRedrivePolicy', reason: `${itself}: nothing consumes it but the operator's redrive.` },
    );
  }

  /** The worker: one message at a time, at most `maxConcurrency` workers at once, partial batch failures reported. */
  attachWorker(worker: IFunction, maxConcurrency: number): void {
    worker.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, maxConcurrency, reportBatchItemFailures: true }));
    Validations.of(worker).acknowledge({
      id: 'Serverless-LambdaEventSourceMappingDestination',
      reason:
        "Lambda takes on-failure destinations for stream and Kafka sources, not SQS: a message that keeps failing goes to the queue's own dead-letter queue after maxReceiveCount tries.",
    });
  }

  /** Least privilege: lets `fn` send to the work queue (and nothing else on it). */
  bindSend(fn: IFunction, environmentName: string): void {
    // SendMessage alone: the code sends by the URL it is given (grantSendMessages would add
    // GetQueueAttributes and GetQueueUrl, which nothing calls).
    this.queue.grant(fn, 'sqs:SendMessage');
    (fn as IFunction & { addEnvironment(key: string, value: string): void }).addEnvironment(environmentName, this.queue.queueUrl);
  }
}
