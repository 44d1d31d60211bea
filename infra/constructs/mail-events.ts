import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { ConfigurationSet, ConfigurationSetEventDestination, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DEAD_LETTER_RETENTION_DAYS } from './work-queue';

/**
 * Bounce and complaint handling (docs/runbook.md "Bounces and complaints"): every email is sent
 * with one of two configuration sets, one per mail stream (docs/scale-writes.md#two-mail-streams):
 * transactional mail (env SES_CONFIGURATION_SET) and bulk mail, the reminders
 * (SES_BULK_CONFIGURATION_SET). Each publishes its own reputation figures, and both publish
 * Bounce and Complaint events to one SNS topic; `subscribe` attaches the handler Lambda
 * (functions/jobs/ses-events.ts) that marks the accounts.
 *
 * The topic carries recipient addresses, so it is encrypted with a customer-managed key that
 * SES may use to publish; SNS decrypts before invoking Lambda, so the handler needs no key grant.
 *
 * An event the handler cannot take is kept, not dropped: one that SNS cannot deliver, or that
 * still fails after Lambda's own two retries, lands in the dead-letter queue (alarmed; replayed
 * by hand, docs/runbook.md "Mail event dead letters").
 */
export class MailEvents extends Construct {
  readonly configurationSet: ConfigurationSet;
  /** What a sender is granted besides the identity (infra/constructs/app-function.ts bindSendEmail). */
  readonly configurationSetArn: string;
  readonly bulkConfigurationSet: ConfigurationSet;
  readonly bulkConfigurationSetArn: string;
  readonly topic: Topic;
  readonly key: Key;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      // Bounce and complaint rates of this product's mail, besides the account-wide figures.
      reputationMetrics: true,
    });
    this.bulkConfigurationSet = new ConfigurationSet(this, 'BulkConfigurationSet', { reputationMetrics: true });
    const arnOf = (set: ConfigurationSet) =>
      Stack.of(this).formatArn({ service: 'ses', resource: 'configuration-set', resourceName: set.configurationSetName });
    this.configurationSetArn = arnOf(this.configurationSet);
    this.bulkConfigurationSetArn = arnOf(this.bulkConfigurationSet);

    this.key = new Key(this, 'TopicKey', {
      description: 'SES bounce and complaint events (recipient addresses)',
      enableKeyRotation: true,
      // Only messages in flight are encrypted with it: nothing to read back once the stack is gone.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
        resources: ['*'], // in a key policy, "*" is this key
      }),
    );
    this.topic = new Topic(this, 'Topic', {
      displayName: 'SES bounces and complaints',
      masterKey: this.key,
      enforceSSL: true,
    });

    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(DEAD_LETTER_RETENTION_DAYS),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const itself = 'This queue is itself the dead-letter queue of the bounce and complaint events';
    Validations.of(this.deadLetterQueue).acknowledge(
      { id: 'AwsSolutions-SQS3', reason: `${itself}; a DLQ of a DLQ would only move the same events again.` },
      { id: 'Serverless-SQSRedrivePolicy', reason: `${itself}: nothing consumes it but the operator replaying an event.` },
    );

    new ConfigurationSetEventDestination(this, 'BouncesAndComplaints', {
      configurationSet: this.configurationSet,
      destination: EventDestination.snsTopic(this.topic),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
    });
    new ConfigurationSetEventDestination(this, 'BulkBouncesAndComplaints', {
      configurationSet: this.bulkConfigurationSet,
      destination: EventDestination.snsTopic(this.topic),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
    });
  }

  /** The handler that marks bounced and complaining addresses; what it cannot take goes to the dead-letter queue. */
  subscribe(handler: LambdaFunction): void {
    this.topic.addSubscription(new LambdaSubscription(handler, { deadLetterQueue: this.deadLetterQueue }));
    // SNS invokes asynchronously: after Lambda's two retries a failing event goes here (no L2 setter after creation).
    (handler.node.defaultChild as CfnFunction).deadLetterConfig = { targetArn: this.deadLetterQueue.queueArn };
    handler.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.deadLetterQueue.queueArn] }));
  }
}
