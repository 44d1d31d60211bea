import { Button } from '@/components/ui/button';
import type { AdminUserDetail } from '@shared/admin-types';
import { formatDateTimeMedium } from '@/utils/format';
import { useRemoveUserPasskey, useUserPasskeys, type UserPasskey } from '../api/user-passkeys';
import { isBeingErased } from '../utils/account-state';
import { errorText } from '../utils/error-text';
import type { ConfirmRequest } from './confirm-dialog';
import { reportOutcome, type Notify } from './notice';

interface Props {
  user: AdminUserDetail;
  who: string;
  notify: Notify;
  confirm: (request: ConfirmRequest) => Promise<boolean>;
}

/**
 * The user's passkeys with a Remove button each (docs/security.md#account-security-center): the way out when the
 * owner reports a passkey they did not add. Listed only when the account has any.
 */
export function PasskeysSection({ user, who, notify, confirm }: Props) {
  const count = user.passkey_count ?? 0;
  const passkeys = useUserPasskeys(user.id, count > 0);
  const remove = useRemoveUserPasskey(user.id);
  const run = async (passkey: UserPasskey) => {
    const ok = await confirm({
      title: `Remove the passkey "${passkey.name}"?`,
      consequence: `It can no longer sign in to ${who}'s account. ${who} gets an email about it.`,
      confirmLabel: 'Remove passkey',
    });
    if (!ok) return;
    await reportOutcome(
      notify,
      () => remove.mutateAsync(passkey.id),
      () => ({ tone: 'success', text: `Passkey "${passkey.name}" removed.` }),
      (error) => ({ tone: 'error', text: errorText(error, 'Failed to remove the passkey') }),
    );
  };
  return (
    <>
      <p>
        Passkeys: <strong>{count}</strong>
      </p>
      {passkeys.isError ? <p role="alert">{errorText(passkeys.error, 'Failed to load the passkeys')}</p> : null}
      {count > 0 && passkeys.data ? (
        <ul aria-label="Passkeys">
          {passkeys.data.items.map((passkey) => (
            <li key={passkey.id}>
              <strong>{passkey.name}</strong> — added {formatDateTimeMedium(passkey.created_at)}, last used{' '}
              {passkey.last_used_at ? formatDateTimeMedium(passkey.last_used_at) : 'never'}{' '}
              <Button
                variant="link"
                onClick={() => void run(passkey)}
                disabled={isBeingErased(user) || remove.isPending}
                aria-label={`Remove passkey ${passkey.name}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
