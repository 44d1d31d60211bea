import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { accepts, statusCondition } from '../lib/account-states';
import { appUrl } from '../lib/app-url';
import { currentDate, nowSeconds } from '../lib/clock';
import { tableName } from '../lib/db';
import { badRequest, notFound } from '../lib/errors';
import { deviceAuditKey } from '../lib/device-audit-key';
import { keys } from '../lib/table';
import { getUserById } from '../lib/users';
import { accountAudit, type Caller } from '../lib/caller';
import { deletePasskey } from './passkey-records';

/**
 * The "this wasn't me" link of the `passkey_added` notice (docs/security.md#account-security-center): whoever
 * reads the mail can remove that passkey and sign the account out everywhere, without signing in
 * (the person who added it may hold the sessions and the passkey, not the inbox).
 *
 * The token is an HS256 JWT naming the account (`sub`) and the passkey (`pk`), with its own
 * `typ` and a key derived for this purpose only from the DeviceAuditSecret
 * (../lib/device-audit-key.ts), so no other token of the product passes for it.
 * It expires: a mail read after that falls back to the password reset, which removes every
 * passkey. The link opens the SPA's confirmation page (a GET changes nothing: mail scanners
 * follow links); its one button POSTs the token.
 */
const TYP = 'passkey-removal+jwt';
export const REMOVAL_LINK_LIFETIME_SECONDS = 30 * 24 * 3600;
// Not from the session key: a rotation of that key must not break the links waiting in mailboxes.
const removalKey = () => deviceAuditKey('passkey-removal-link').then((key) => new Uint8Array(key));

export async function passkeyRemovalLink(userId: string, passkeyId: string): Promise<string> {
  const token = await new SignJWT({ pk: passkeyId })
    .setProtectedHeader({ alg: 'HS256', typ: TYP })
    .setSubject(userId)
    .setIssuedAt(nowSeconds())
    .setExpirationTime(nowSeconds() + REMOVAL_LINK_LIFETIME_SECONDS)
    .sign(await removalKey());
  return `${await appUrl()}/passkey-removal?token=${encodeURIComponent(token)}`;
}

/** The account and passkey a token names; 400 `invalid_token` when tampered, expired or of another kind. */
export async function readRemovalToken(token: string): Promise<{ userId: string; passkeyId: string }> {
  try {
    const { payload } = await jwtVerify(token, await removalKey(), { algorithms: ['HS256'], typ: TYP, currentDate: currentDate() });
    if (typeof payload.sub !== 'string' || !payload.sub || typeof payload.pk !== 'string' || !payload.pk) throw badRequest('invalid_token');
    return { userId: payload.sub, passkeyId: payload.pk };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) throw badRequest('invalid_token');
    throw error;
  }
}

/**
 * Removes the passkey the token names and ends every session of the account, in one
 * transaction with its audit entry. A passkey already gone → 404 `passkey_not_found` and nothing
 * changes (the link acts once).
 */
export async function removePasskeyByLink(token: string, caller: Caller): Promise<void> {
  const { userId, passkeyId } = await readRemovalToken(token);
  const user = await getUserById(userId);
  // an account being erased answers as if the passkey were gone (functions/lib/account-states.ts)
  if (!user || !accepts('emailLink', user.status)) throw notFound('passkey_not_found');
  const accepted = statusCondition('emailLink');
  await deletePasskey(
    userId,
    passkeyId,
    accountAudit('auth.passkey_removed', user, caller, {
      old: { passkey: passkeyId.slice(0, 8) },
      new: { via: 'notice_link', sessions_ended: true },
    }),
    [
      {
        // session_version + 1 ends every session at once (what endAllSessions does).
        Update: {
          TableName: tableName(),
          Key: keys.user(userId),
          UpdateExpression: 'ADD session_version :one',
          ConditionExpression: `attribute_exists(pk) AND ${accepted.expression}`,
          ExpressionAttributeNames: accepted.names,
          ExpressionAttributeValues: { ':one': 1, ...accepted.values },
        },
      },
    ],
  );
}
