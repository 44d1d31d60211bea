import { deletePasskey, listPasskeys, ownPasskey, type PasskeyView } from '../accounts/passkey-records';
import { sendSecurityNotice } from '../accounts/security-notices';
import { AUDIT_ACTION } from '../lib/audit';
import { accountStateCheck, assertAccepts, BEING_ERASED } from '../lib/account-states';
import { conflict, notFound } from '../lib/errors';
import { getUserById } from '../lib/users';
import { adminAudit, type AdminCaller } from '../lib/admin-caller';

/**
 * A user's passkeys in the admin drawer (docs/security.md#account-security-center): an administrator can see and
 * remove a passkey the owner does not recognize, e.g. one added from a stolen session.
 */
async function existingUser(userId: string) {
  const user = await getUserById(userId);
  if (!user) throw notFound();
  return user;
}

export async function userPasskeys(userId: string): Promise<{ items: PasskeyView[] }> {
  await existingUser(userId);
  return { items: await listPasskeys(userId) };
}

/**
 * Removes one passkey of the user (audited as `admin.passkey_removed`) and tells the owner. An
 * account being erased refuses it (409 `account_being_erased`), also when its purge starts
 * between the check and the write (the transaction holds the status).
 */
export async function removeUserPasskey(userId: string, passkeyId: string, caller: AdminCaller): Promise<void> {
  const user = await existingUser(userId);
  assertAccepts('removePasskey', user);
  const before = await ownPasskey(userId, passkeyId);
  await deletePasskey(
    userId,
    passkeyId,
    adminAudit(
      caller,
      AUDIT_ACTION.adminPasskeyRemoved,
      { type: 'user', id: userId },
      { old: { passkey: passkeyId.slice(0, 8), name: before.name } },
    ),
    [accountStateCheck('removePasskey', userId)],
    conflict(BEING_ERASED),
  );
  await sendSecurityNotice(user, 'passkey_removed', { ip: caller.ip, userAgent: caller.userAgent }, { passkeyName: before.name });
}
