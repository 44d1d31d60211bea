import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { GSIS, KEY } from '../../functions/lib/table';
import type { LocalResource, LocalTwin } from '../../functions/lib/local-twin';
import { queriedPartition } from './iam/requests';

/**
 * DynamoDB's key-size limits where DynamoDB Local does not apply them
 * (docs/security.md#what-the-local-twin-refuses-that-dynamodb-local-lets-through). A partition
 * key value is at most 2,048 bytes, a sort key value at most 1,024, an item at most 400 KB.
 * DynamoDB Local refuses all three on GetItem, PutItem, UpdateItem, DeleteItem, BatchGetItem,
 * BatchWriteItem, TransactGetItems and TransactWriteItems, and a Query's sort-key condition over
 * 1,024 bytes, measured in UTF-8 bytes as DynamoDB does. It answers a Query whose partition-key
 * value is longer (on the table or an index), and a Query whose ExclusiveStartKey holds a key
 * over its limit, with an empty page: DynamoDB answers ValidationException, which a handler turns
 * into a 500. Those are refused here, before the call is sent, as the SDK surfaces DynamoDB's
 * refusal (a DynamoDBServiceException named ValidationException, status 400).
 */
export const MAX_PARTITION_KEY_BYTES = 2048;
export const MAX_SORT_KEY_BYTES = 1024;

// DynamoDB's own words (its "of2048" included).
const HASH_KEY_TOO_LONG = 'One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes';
const RANGE_KEY_TOO_LONG =
  'One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes';
const BAD_START_KEY = 'The provided starting key is invalid: ';

export function validationException(message: string): DynamoDBServiceException {
  return new DynamoDBServiceException({
    name: 'ValidationException',
    message,
    $fault: 'client',
    $metadata: { httpStatusCode: 400, attempts: 1, totalRetryDelay: 0 },
  });
}

/** The size DynamoDB counts for a key value, marshalled (`{ S }`, `{ B }`, `{ N }`) or not. */
function keyBytes(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (value instanceof Uint8Array) return value.byteLength;
  if (value && typeof value === 'object') {
    const { S, B, N } = value as { S?: unknown; B?: unknown; N?: unknown };
    if (typeof S === 'string') return Buffer.byteLength(S, 'utf8');
    if (B instanceof Uint8Array) return B.byteLength;
    if (typeof N === 'string') return N.length;
  }
  return 0;
}

/** The key attributes of the table or of the index a Query names. */
function keySchemaOf(indexName: unknown): { partitionKey: string; sortKey: string } {
  const index = typeof indexName === 'string' ? GSIS.find((gsi) => gsi.indexName === indexName) : undefined;
  return index ?? { partitionKey: KEY.partitionKey, sortKey: KEY.sortKey };
}

/**
 * Throws the ValidationException DynamoDB answers when a call names a key over its size, for
 * what DynamoDB Local lets through: a Query's partition-key condition, and the keys of a Query's
 * ExclusiveStartKey (the table's, and the index's it queries).
 */
export function assertWithinDynamoDbLimits(commandName: string, input: Record<string, unknown>): void {
  if (commandName.replace(/Command$/, '') !== 'Query') return;
  const partition = queriedPartition(input);
  if (partition !== undefined && keyBytes(partition) > MAX_PARTITION_KEY_BYTES) throw validationException(HASH_KEY_TOO_LONG);
  const start = input.ExclusiveStartKey as Record<string, unknown> | undefined;
  if (!start) return;
  const schemas = [{ partitionKey: KEY.partitionKey, sortKey: KEY.sortKey }, keySchemaOf(input.IndexName)];
  for (const { partitionKey, sortKey } of schemas) {
    if (keyBytes(start[partitionKey]) > MAX_PARTITION_KEY_BYTES) throw validationException(`${BAD_START_KEY}${HASH_KEY_TOO_LONG}`);
    if (keyBytes(start[sortKey]) > MAX_SORT_KEY_BYTES) throw validationException(`${BAD_START_KEY}${RANGE_KEY_TOO_LONG}`);
  }
}

/**
 * The local twin when IAM is switched off (`IAM_TWIN=off`, infra/local/iam/install.ts): DynamoDB's
 * limits still hold, since DynamoDB applies them whatever the role.
 */
export class DynamoDbLimitsTwin implements LocalTwin {
  authorizeSdkCall(clientName: string, commandName: string, input: Record<string, unknown>): Promise<void> {
    if (clientName.startsWith('DynamoDB')) assertWithinDynamoDbLimits(commandName, input);
    return Promise.resolve();
  }

  check(_action: string, _resource: LocalResource): Promise<void> {
    return Promise.resolve();
  }
}
