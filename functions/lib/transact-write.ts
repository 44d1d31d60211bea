import type { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './db';
import { failedConditions, withWriteRetries } from './retry';

/**
 * One DynamoDB transaction, tried again while DynamoDB cancels it for contention or throttling
 * only (`TransactionConflict`, `ThrottlingError`: nothing was written, so the same input is safe
 * to send again). A cancellation in which an item refused its condition is thrown at once: that
 * is the product's rule answering, for the caller to map (`isConditionRefusal`). Retries that run
 * out rethrow the last error, which the one error mapper answers 503 `unavailable`.
 */
export const transactWrite = (input: TransactWriteCommandInput) => withWriteRetries(() => db().send(new TransactWriteCommand(input)));

/** A cancelled transaction in which at least one item refused its condition: a domain answer, never a retry. */
export const isConditionRefusal = (error: unknown): error is TransactionCanceledException => failedConditions(error).length > 0;
