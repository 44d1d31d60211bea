import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { keys } from '../lib/table';

/**
 * Passkey storage facts the admin side needs (count, hard delete) without loading the WebAuthn
 * library: see functions/accounts/passkeys.ts and docs/account-security.md.
 */
export const credentialHash = (credentialId: string) => createHash('sha256').update(credentialId).digest('base64url');

/** The query of an account's passkey items (PASSKEY#<hash> in its partition). */
const passkeysOf = (userId: string) => ({
  TableName: tableName(),
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :passkey)',
  ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':passkey': 'PASSKEY#' },
});

/** How many passkeys an account has (the admin drawer). */
export async function countPasskeys(userId: string): Promise<number> {
  const result = await db().send(new QueryCommand({ ...passkeysOf(userId), Select: 'COUNT' }));
  return result.Count ?? 0;
}

/** The keys of an account's passkeys and their lookup items (consistent read: a reset must see every one). */
export async function passkeyKeysOf(userId: string): Promise<Array<{ pk: string; sk: string }>> {
  const result = await db().send(new QueryCommand({ ...passkeysOf(userId), ProjectionExpression: 'pk, sk', ConsistentRead: true }));
  const items = (result.Items ?? []) as Array<{ pk: string; sk: string }>;
  return [...items, ...passkeyLookupKeys(items)];
}

/** The lookup items of an account's partition items: hard delete removes them with the passkeys. */
export const passkeyLookupKeys = (items: Array<{ sk: string }>) =>
  items.filter((item) => item.sk.startsWith('PASSKEY#')).map((item) => keys.passkeyLookup(item.sk.slice('PASSKEY#'.length)));
