import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { keys } from '../lib/table';

/**
 * Passkey storage facts the admin side needs (count, hard delete) without loading the WebAuthn
 * library: see functions/accounts/passkeys.ts and docs/account-security.md.
 */
export const credentialHash = (credentialId: string) => createHash('sha256').update(credentialId).digest('base64url');

/** How many passkeys an account has (the admin drawer). */
export async function countPasskeys(userId: string): Promise<number> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :passkey)',
      ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':passkey': 'PASSKEY#' },
      Select: 'COUNT',
    }),
  );
  return result.Count ?? 0;
}

/** The lookup items of an account's partition items: hard delete removes them with the passkeys. */
export const passkeyLookupKeys = (items: Array<{ sk: string }>) =>
  items.filter((item) => item.sk.startsWith('PASSKEY#')).map((item) => keys.passkeyLookup(item.sk.slice('PASSKEY#'.length)));
