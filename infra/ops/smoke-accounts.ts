/**
 * The smoke script's throwaway accounts, written through the app's own domain code against the
 * stack's table (operator credentials): created verified, given a sign-in challenge whose code
 * the script knows (the emailed one it cannot read), and purged at the end whatever happened.
 * Their addresses are the SES mailbox simulator's, which accepts mail without a bounce and
 * without leaving the sandbox.
 */
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { issueCode } from '../../functions/accounts/codes';
import { hashPassword } from '../../functions/accounts/passwords';
import { continuePurge, startPurge } from '../../functions/admin/purge-job';
import { mutateUser } from '../../functions/accounts/user-mutation';
import { softDeleteChange } from '../../functions/accounts/status-change';
import { type AuditInput, writeAudit } from '../../functions/lib/audit';
import { db, tableName } from '../../functions/lib/db';
import { indexKeys, keys } from '../../functions/lib/table';
import type { Role, UserRecord } from '../../functions/lib/user-record';
import { getUserById, insertUser } from '../../functions/lib/users';

export interface SmokeAccount {
  id: string;
  email: string;
  password: string;
  role: Role;
}

const DAY_MS = 24 * 3600 * 1000;
/** RETENTION_DAYS can be at most 3650 (functions/lib/config.ts): a day more is past any retention. */
const PAST_ANY_RETENTION_DAYS = 3651;
const OPERATOR = `operator:${userInfo().username}`;
/** How long the throwaway administrator's one password sign-in stays open: the script signs in at once. */
const SMOKE_SIGN_IN_MS = 15 * 60 * 1000;

const operatorAudit = (action: string, user: Pick<UserRecord, 'id'>, values: AuditInput['newValues'] = null): AuditInput => ({
  action,
  actor: { email: OPERATOR },
  entityType: 'user',
  entityId: user.id,
  newValues: values,
  userAgent: 'smoke',
});

export async function createSmokeAccount(run: string, role: Role): Promise<SmokeAccount> {
  const email = `success+smoke-${run}-${role}@simulator.amazonses.com`;
  const password = randomBytes(18).toString('base64url');
  const user = await insertUser({
    email,
    first_name: 'Smoke',
    last_name: 'Test',
    password_hash: await hashPassword(password),
    role,
    verified: true,
  });
  // Where administrators must use a passkey (prod), the script's one password sign-in is an
  // operator's allowance, as `npm run make-admin -- --allow-password-sign-in` gives (functions/accounts/admin-passkey-rule.ts).
  const passwordSignInUntil = role === 'admin' ? new Date(Date.now() + SMOKE_SIGN_IN_MS).toISOString() : undefined;
  if (passwordSignInUntil)
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(user.id),
        UpdateExpression: 'SET password_sign_in_until = :until',
        ExpressionAttributeValues: { ':until': passwordSignInUntil },
      }),
    );
  await writeAudit(operatorAudit('operator.smoke_account_created', user, { role, password_sign_in_until: passwordSignInUntil ?? null }));
  return { id: user.id, email, password, role };
}

/**
 * A code the script knows for the challenge the real password step opened (its code went to the
 * SES simulator): the same challenge item, still the account's live challenge and still bound to
 * the script's browser cookie, with a fresh code in place of the mailed one.
 */
export async function knownSignInCode(account: SmokeAccount, challengeId: string): Promise<string> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.challenge(challengeId), ConsistentRead: true }));
  if (Item?.user_id !== account.id) throw new Error(`challenge ${challengeId} is not ${account.email}'s`);
  return await issueCode(keys.challenge(challengeId), {
    type: 'challenge',
    user_id: account.id,
    email_lower: Item.email_lower,
    browser_hash: Item.browser_hash,
  });
}

/**
 * Moves a soft-deleted account's deletion date past any retention period, erasure index
 * included, so that an administrator may hard-delete it today (the rule stays the product's).
 */
export async function backdateDeletion(account: SmokeAccount): Promise<void> {
  const deletedAt = new Date(Date.now() - PAST_ANY_RETENTION_DAYS * DAY_MS).toISOString();
  const set = { deleted_at: deletedAt, ...indexKeys.erasureDue(account.id, deletedAt) };
  const names = Object.keys(set);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(account.id),
      UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')} ADD #version :one`,
      ConditionExpression: '#status = :deleted',
      ExpressionAttributeNames: {
        '#status': 'status',
        '#version': 'version',
        ...Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
      },
      ExpressionAttributeValues: {
        ':deleted': 'deleted',
        ':one': 1,
        ...Object.fromEntries(names.map((name, i) => [`:v${i}`, set[name as keyof typeof set]])),
      },
    }),
  );
}

/** Soft-deletes (if still active) and purges the account the product's way; gone afterwards. */
export async function purgeSmokeAccount(account: SmokeAccount): Promise<void> {
  const user = await getUserById(account.id);
  if (!user) return;
  if (user.status !== 'deleted' && user.status !== 'purging')
    await mutateUser(account.id, 'softDelete', (current) =>
      softDeleteChange(current, 'smoke test account', (values) => ({
        ...operatorAudit('operator.smoke_account_deleted', current, values.new),
        oldValues: values.old,
      })),
    );
  const deleted = await getUserById(account.id);
  if (deleted?.status === 'deleted') await startPurge(deleted, operatorAudit('operator.smoke_account_purged', deleted), new Date());
  for (let job = await continuePurge(account.id); job.status !== 'done'; job = await continuePurge(account.id));
}

/** Whether anything of the account is left (its profile item). */
export async function smokeAccountExists(account: SmokeAccount): Promise<boolean> {
  return Boolean(await getUserById(account.id));
}
