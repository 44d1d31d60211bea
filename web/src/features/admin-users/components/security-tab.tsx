import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useInvalidateSessions } from '../api/invalidate-sessions';
import { useLockUser } from '../api/lock-user';
import { useSoftDeleteUser } from '../api/soft-delete-user';
import { useUnlockUser } from '../api/unlock-user';
import type { AdminUserDetail } from '@shared/admin-types';
import { isBeingErased } from '../utils/account-state';
import { errorText } from '../utils/error-text';
import { HardDeletePanel } from './hard-delete-panel';
import { PasskeysSection } from './passkeys-section';
import { reportOutcome, type Notify } from './notice';
import { useConfirm, type ConfirmRequest } from './confirm-dialog';
import { ResetPasswordButton } from './reset-password-button';
import { useRestoreUser } from '../api/restore-user';
import { RestoreButton } from './restore-button';

export const isUserLocked = (user: AdminUserDetail) => user.is_locked === true || user.status === 'locked';

/** How the person is named in confirmations: their name, else their email, else their id. */
export const personName = (user: AdminUserDetail) =>
  [user.first_name, user.last_name].filter(Boolean).join(' ').trim() || user.email || `User ${user.id}`;

type Confirm = (request: ConfirmRequest) => Promise<boolean>;

function LockToggle({ user, notify, confirm }: { user: AdminUserDetail; notify: Notify; confirm: Confirm }) {
  const lock = useLockUser(user.id);
  const unlock = useUnlockUser(user.id);
  const locked = isUserLocked(user);
  const mutation = locked ? unlock : lock;
  const run = async () => {
    if (
      !locked &&
      !(await confirm({
        title: `Lock ${personName(user)}'s account?`,
        consequence: `${personName(user)} is signed out everywhere and cannot sign in until the account is unlocked.`,
        confirmLabel: 'Lock account',
      }))
    )
      return;
    await reportOutcome(
      notify,
      () => mutation.mutateAsync(),
      () => ({ tone: 'success', text: locked ? 'Account unlocked.' : 'Account locked.' }),
      (error) => ({ tone: 'error', text: errorText(error, 'Failed to toggle lock') }),
    );
  };
  const busy = lock.isPending || unlock.isPending;
  return (
    <Button variant="secondary" onClick={run} disabled={isBeingErased(user) || busy}>
      {busy ? (locked ? 'Unlocking…' : 'Locking…') : locked ? 'Unlock account' : 'Lock account'}
    </Button>
  );
}

function InvalidateButton({ user, notify, confirm }: { user: AdminUserDetail; notify: Notify; confirm: Confirm }) {
  const invalidate = useInvalidateSessions(user.id);
  const run = async () => {
    const ok = await confirm({
      title: `Sign ${personName(user)} out everywhere?`,
      consequence: `Every session of ${personName(user)} ends at once, on every device. They can sign in again.`,
      confirmLabel: 'Invalidate tokens',
    });
    if (!ok) return;
    await reportOutcome(
      notify,
      () => invalidate.mutateAsync(),
      () => ({ tone: 'success', text: 'Tokens invalidated.' }),
      (error) => ({ tone: 'error', text: errorText(error, 'Failed to invalidate tokens') }),
    );
  };
  return (
    <Button variant="secondary" onClick={run} disabled={isBeingErased(user) || invalidate.isPending}>
      {invalidate.isPending ? 'Invalidating…' : 'Invalidate tokens'}
    </Button>
  );
}

function DangerZone({
  user,
  notify,
  onDeleted,
  confirm,
}: {
  user: AdminUserDetail;
  notify: Notify;
  onDeleted: () => void;
  confirm: Confirm;
}) {
  const [reason, setReason] = useState('');
  const [showHard, setShowHard] = useState(false);
  const softDelete = useSoftDeleteUser(user.id);
  const restore = useRestoreUser(user.id);
  const id = useId();
  const deleted = user.status === 'deleted';
  // an account being erased takes no change; the hard-delete toggle stays: it shows the purge's progress
  const erasing = isBeingErased(user);
  const days = user.retention_days ?? 30;
  const undo = () =>
    reportOutcome(
      notify,
      () => restore.mutateAsync(),
      () => ({ tone: 'success', text: 'User restored.' }),
      (error) => ({ tone: 'error', text: errorText(error, 'Failed to restore user') }),
    );
  const run = async () => {
    const ok = await confirm({
      title: `Soft-delete ${personName(user)}?`,
      consequence: `${personName(user)} is signed out everywhere and can no longer sign in. The account can be restored for ${days} days; after that it can be deleted for good.`,
      confirmLabel: 'Soft-delete account',
    });
    if (!ok) return;
    await reportOutcome(
      notify,
      async () => {
        await softDelete.mutateAsync(reason);
        setReason('');
      },
      // Undo right where the result shows: a slip is one click to repair.
      () => ({ tone: 'success', text: 'User soft-deleted.', action: { label: 'Undo', run: () => void undo() } }),
      (error) => ({ tone: 'error', text: errorText(error, 'Failed to soft-delete') }),
    );
  };
  return (
    <section className="admin-danger" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Danger zone</h3>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-reason`}>
          Soft-delete reason (optional)
        </label>
        <textarea
          id={`${id}-reason`}
          className="field__input"
          rows={2}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          disabled={deleted || erasing}
        />
      </div>
      <div className="admin-actions">
        <Button variant="danger" onClick={run} disabled={deleted || erasing || softDelete.isPending}>
          {softDelete.isPending ? 'Soft-deleting…' : 'Soft-delete account'}
        </Button>
        {deleted ? <RestoreButton userId={user.id} notify={notify} label="Restore account" /> : null}
        <Button variant="link" aria-expanded={showHard} aria-controls={`${id}-hard`} onClick={() => setShowHard(!showHard)}>
          {showHard ? 'Hide hard delete options' : 'Advanced: Hard delete'}
        </Button>
      </div>
      {showHard ? <HardDeletePanel id={`${id}-hard`} user={user} onDeleted={onDeleted} /> : null}
    </section>
  );
}

export function SecurityTab({ user, notify, onDeleted }: { user: AdminUserDetail; notify: Notify; onDeleted: () => void }) {
  const { confirm, dialog } = useConfirm();
  return (
    <div className="admin-drawer__sections">
      <section aria-label="Access">
        {typeof user.passkey_count === 'number' ? (
          <PasskeysSection user={user} who={personName(user)} notify={notify} confirm={confirm} />
        ) : null}
        <div className="admin-actions">
          <InvalidateButton user={user} notify={notify} confirm={confirm} />
          <LockToggle user={user} notify={notify} confirm={confirm} />
          <ResetPasswordButton userId={user.id} notify={notify} disabled={isBeingErased(user)} />
        </div>
      </section>
      <DangerZone user={user} notify={notify} onDeleted={onDeleted} confirm={confirm} />
      {dialog}
    </div>
  );
}
