import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { auditPuts, type AuditInput } from '../lib/audit';
import { db, tableName } from '../lib/db';
import { notFound } from '../lib/errors';
import { keyAfter, keys, SK } from '../lib/table';
import { isPasskeyId } from '../../shared/key-values';
import { isConditionRefusal, transactWrite } from '../lib/transact-write';

/**
 * Passkey storage the admin side needs too (list, count, removal, hard delete) without loading
 * the WebAuthn library: see functions/accounts/passkey-registration.ts and docs/security.md#account-security-center.
 */
export const MAX_PASSKEYS = 20;

export interface PasskeyItem {
  pk: string;
  sk: string;
  type: 'passkey';
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports?: string[];
  device_type: string;
  backed_up: boolean;
  aaguid?: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface PasskeyView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  backed_up: boolean;
}

export const viewOf = (item: PasskeyItem): PasskeyView => ({
  id: item.id,
  name: item.name,
  created_at: item.created_at,
  last_used_at: item.last_used_at ?? null,
  backed_up: Boolean(item.backed_up),
});

export const credentialHash = (credentialId: string) => createHash('sha256').update(credentialId).digest('base64url');

/** The query of an account's passkey items (PASSKEY#<hash> in its partition). */
const passkeysOf = (userId: string) => ({
  TableName: tableName(),
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :passkey)',
  ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':passkey': SK.passkey },
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
  items.filter((item) => item.sk.startsWith(SK.passkey)).map((item) => keys.passkeyLookup(keyAfter(SK.passkey, item.sk)));

/** Every passkey of the account (bounded: at most MAX_PASSKEYS exist). */
export async function passkeyItems(userId: string): Promise<PasskeyItem[]> {
  const result = await db().send(new QueryCommand({ ...passkeysOf(userId), ConsistentRead: true, Limit: MAX_PASSKEYS + 5 }));
  return (result.Items ?? []) as PasskeyItem[];
}

export async function listPasskeys(userId: string): Promise<PasskeyView[]> {
  return (await passkeyItems(userId)).map(viewOf).sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** One passkey of the account; unknown, malformed or another account's id → 404 `passkey_not_found`. */
export async function ownPasskey(userId: string, passkeyId: string): Promise<PasskeyItem> {
  if (!isPasskeyId(passkeyId)) throw notFound('passkey_not_found');
  const found = await db().send(new GetCommand({ TableName: tableName(), Key: keys.passkey(userId, passkeyId), ConsistentRead: true }));
  if (!found.Item) throw notFound('passkey_not_found');
  return found.Item as PasskeyItem;
}

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/**
 * Deletes a passkey and its lookup item with the audit entry (and any `also` items) in one
 * transaction; a passkey already gone → 404 `passkey_not_found` and nothing changes. When an
 * `also` item's condition fails instead, `alsoRefused` is thrown when given.
 */
export async function deletePasskey(
  userId: string,
  passkeyId: string,
  audit: AuditInput,
  also: TransactItem[] = [],
  alsoRefused?: Error,
): Promise<void> {
  try {
    await transactWrite({
      TransactItems: [
        { Delete: { TableName: tableName(), Key: keys.passkey(userId, passkeyId), ConditionExpression: 'attribute_exists(pk)' } },
        { Delete: { TableName: tableName(), Key: keys.passkeyLookup(passkeyId) } },
        ...also,
        ...auditPuts(audit),
      ],
    });
  } catch (error) {
    if (!isConditionRefusal(error)) throw error;
    const alsoFailed = (error.CancellationReasons ?? [])
      .slice(2, 2 + also.length)
      .some((reason) => reason.Code === 'ConditionalCheckFailed');
    throw alsoRefused && alsoFailed ? alsoRefused : notFound('passkey_not_found');
  }
}
