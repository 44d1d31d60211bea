/**
 * The SQS part of functions/lib/queue.ts, imported on the first send (a module of its own, so
 * the bundler keeps only the client and the commands named here).
 */
export { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
