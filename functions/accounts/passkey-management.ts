import { AUDIT_ACTION, auditPuts } from '../lib/audit';
import { accountAudit, type Caller } from '../lib/caller';
import { tableName } from '../lib/db';
import { notFound } from '../lib/errors';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { deletePasskey, ownPasskey, type PasskeyView, viewOf } from './passkey-records';
import { confirmIdentity, type IdentityProof } from './reauthentication';
import { sendSecurityNotice } from './security-notices';
import { isConditionRefusal, transactWrite } from '../lib/transact-write';

/** Renaming and removing one's own passkeys (docs/security.md#account-security-center); each audited, removal with a notice. */
export async function renamePasskey(user: UserRecord, passkeyId: string, name: string, caller: Caller): Promise<PasskeyView> {
  const before = await ownPasskey(user.id, passkeyId);
  const trimmed = name.trim();
  try {
    await transactWrite({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.passkey(user.id, passkeyId),
            UpdateExpression: 'SET #name = :name',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#name': 'name' },
            ExpressionAttributeValues: { ':name': trimmed },
          },
        },
        ...auditPuts(
          accountAudit('auth.passkey_renamed', user, caller, {
            old: { passkey: passkeyId.slice(0, 8), name: before.name },
            new: { name: trimmed },
          }),
        ),
      ],
    });
  } catch (error) {
    if (isConditionRefusal(error)) throw notFound('passkey_not_found');
    throw error;
  }
  return viewOf({ ...before, name: trimmed });
}

/** Removing one needs "Confirm it's you" (./reauthentication.ts): a stolen session cannot take away the owner's passkeys. */
export async function removePasskey(user: UserRecord, passkeyId: string, proof: IdentityProof, caller: Caller): Promise<void> {
  const before = await ownPasskey(user.id, passkeyId);
  await confirmIdentity(user, proof, caller, 'auth.passkey_removal_refused');
  await deletePasskey(
    user.id,
    passkeyId,
    accountAudit(AUDIT_ACTION.passkeyRemoved, user, caller, { old: { passkey: passkeyId.slice(0, 8), name: before.name } }),
  );
  await sendSecurityNotice(user, 'passkey_removed', caller, { passkeyName: before.name });
}
