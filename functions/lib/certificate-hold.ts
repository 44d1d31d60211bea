import { QueryCommand, type TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './db';
import { keys, SK } from './table';
import { nowIso } from './clock';

type TransactItem = NonNullable<TransactWriteCommand['input']['TransactItems']>[number];

/**
 * While an account is deleted its certificates do not verify (the public check answers as for
 * an unknown code: a deleted learner's name is not shown to anyone holding the link); a restore
 * makes them verify again. The public copies (CERT#<code>) carry `holder_deleted_at` meanwhile.
 * Returns the writes for the account's status transaction (none without a certificate). In lib/
 * because the account's status writes (accounts/status-change.ts) hold them, and the `auth`
 * Lambda, which restores accounts, does not load the program content.
 */
export async function certificateHoldWrites(userId: string, held: boolean, at = nowIso()): Promise<TransactItem[]> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :certificate)',
      ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':certificate': SK.certificate },
      ProjectionExpression: 'verification_code',
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? [])
    .filter((item) => typeof item.verification_code === 'string')
    .map((item) => ({
      Update: {
        TableName: tableName(),
        Key: keys.certificate(String(item.verification_code)),
        UpdateExpression: held ? 'SET holder_deleted_at = :at' : 'REMOVE holder_deleted_at',
        ConditionExpression: 'attribute_exists(pk)',
        ...(held ? { ExpressionAttributeValues: { ':at': at } } : {}),
      },
    }));
}
