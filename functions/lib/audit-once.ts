import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './db';
import { count, METRIC } from './metrics';
import { keys } from './table';
import { nowMs } from './clock';

const HOUR = 3600;

/**
 * True for the first refusal of `action` for `key` in the current hour, false for the rest
 * (counted as RefusalsNotAudited): a flood of refused requests writes one audit entry per hour
 * and key, not one per request (RATE#once_<action>#<key> / WINDOW#<start>, with a TTL).
 */
export async function firstRefusalThisHour(action: string, key: string, now = nowMs()): Promise<boolean> {
  const nowSeconds = Math.floor(now / 1000);
  const start = nowSeconds - (nowSeconds % HOUR);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.rateWindow(`once_${action}`, key.toLowerCase(), start),
        UpdateExpression: 'SET audited = :true, expires_at = :ttl',
        ConditionExpression: 'attribute_not_exists(audited)',
        ExpressionAttributeValues: { ':true': true, ':ttl': start + HOUR + 60 },
      }),
    );
    return true;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    count(METRIC.refusalsNotAudited);
    return false;
  }
}
