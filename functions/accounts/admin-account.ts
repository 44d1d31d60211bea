import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writeAudit } from '../lib/audit';
import { db, tableName } from '../lib/db';
import { ApiError } from '../lib/errors';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserByEmail, insertUser } from '../lib/users';
import { hashPassword } from './passwords';
import { currentDate, nowIso } from '../lib/clock';

/** Operations on administrator accounts: the first-start seed and the `make-admin` command. */

/** How long an operator's one password sign-in for an administrator stays open (functions/accounts/admin-passkey-rule.ts). */
export const PASSWORD_SIGN_IN_HOURS = 24;

/** 24 URL-safe characters from 18 random bytes (144 bits): never a common password. */
export const randomStrongPassword = () => randomBytes(18).toString('base64url');

/**
 * Creates the verified administrator if no account has this email. Returns the password only
 * when the account was created now (so it is shown once).
 */
export async function ensureAdmin(email: string, password?: string): Promise<{ created: boolean; password?: string; user: UserRecord }> {
  const existing = await getUserByEmail(email);
  if (existing) return { created: false, user: existing };
  const chosen = password || randomStrongPassword();
  try {
    const user = await insertUser({
      email,
      first_name: 'Admin',
      last_name: 'User',
      password_hash: await hashPassword(chosen),
      role: 'admin',
      verified: true,
    });
    await writeAudit({
      action: 'user.admin_seeded',
      entityType: 'user',
      entityId: user.id,
      newValues: { email: user.email, role: 'admin' },
    });
    return { created: true, password: chosen, user };
  } catch (error) {
    // Another process seeded it at the same moment.
    if (error instanceof ApiError && error.code === 'already_registered') {
      return { created: false, user: (await getUserByEmail(email))! };
    }
    throw error;
  }
}

/** Promotes an existing account; false when it was already an administrator. */
export async function promoteToAdmin(email: string, actor: string): Promise<{ user: UserRecord; changed: boolean }> {
  const user = await getUserByEmail(email);
  if (!user) throw new Error(`no account with the email ${email}`);
  if (user.role === 'admin') return { user, changed: false };
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(user.id),
        UpdateExpression: 'SET #role = :admin, updated_at = :now ADD version :one',
        ConditionExpression: 'version = :version',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':admin': 'admin', ':now': nowIso(), ':one': 1, ':version': user.version },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new Error('the account changed meanwhile: run the command again');
    throw error;
  }
  await writeAudit({
    action: 'user.role_changed',
    actor: { email: actor },
    entityType: 'user',
    entityId: user.id,
    oldValues: { role: user.role },
    newValues: { role: 'admin' },
    userAgent: 'make-admin',
  });
  return { user: { ...user, role: 'admin' }, changed: true };
}

/**
 * Opens one password sign-in for an administrator who must use a passkey and has none left
 * (`npm run make-admin -- <email> --allow-password-sign-in`, docs/runbook.md#an-administrator-lost-their-passkey):
 * for {@link PASSWORD_SIGN_IN_HOURS} hours their password and emailed code open one session, in
 * which they add a passkey in Settings. Audited `user.password_sign_in_allowed` (actor: the operator).
 */
export async function allowPasswordSignIn(email: string, actor: string): Promise<{ user: UserRecord; until: string }> {
  const user = await getUserByEmail(email);
  if (!user) throw new Error(`no account with the email ${email}`);
  if (user.role !== 'admin') throw new Error(`${user.email} is not an administrator`);
  if (user.status !== 'active' || user.is_locked)
    throw new Error(`${user.email} is ${user.is_locked ? 'locked' : user.status}: unlock or restore it first`);
  const until = new Date(currentDate().getTime() + PASSWORD_SIGN_IN_HOURS * 3600 * 1000).toISOString();
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(user.id),
        UpdateExpression: 'SET password_sign_in_until = :until, updated_at = :now ADD version :one',
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':until': until, ':now': nowIso(), ':one': 1, ':version': user.version },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new Error('the account changed meanwhile: run the command again');
    throw error;
  }
  await writeAudit({
    action: 'user.password_sign_in_allowed',
    actor: { email: actor },
    entityType: 'user',
    entityId: user.id,
    newValues: { password_sign_in_until: until },
    userAgent: 'make-admin',
  });
  return { user, until };
}
