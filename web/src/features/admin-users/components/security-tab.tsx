import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useInvalidateSessions } from '../api/invalidate-sessions';
import { useLockUser } from '../api/lock-user';
import { useSoftDeleteUser } from '../api/soft-delete-user';
import { useUnlockUser } from '../api/unlock-user';
import type { AdminUserDetail } from '../types';
import { errorText } from '../utils/error-text';
import { HardDeletePanel } from './hard-delete-panel';
import { reportOutcome, type Notify } from './notice';
import { ResetPasswordButton } from './reset-password-button';
import { RestoreButton } from './restore-button';

export const isUserLocked = (user: AdminUserDetail) => user.is_locked === true || user.status === 'locked';

function LockToggle({ user, notify }: { user: AdminUserDetail; notify: Notify }) {
  const lock = useLockUser(user.id);
  const unlock = useUnlockUser(user.id);
  const locked = isUserLocked(user);
  const mutation = locked ? unlock : lock;
  const run = () =>
    reportOutcome(
      notify,
      () => mutation.mutateAsync(),
      () => ({ tone: 'success', text: locked ? 'Account unlocked.' : 'Account locked.' }),
      (error) => ({ tone: 'error', text: errorText(error, 'Failed to toggle lock') }),
    );
  const busy = lock.isPending || unlock.isPending;
  return (
    <Button variant="secondary" onClick={run} disabled={busy}>
      {busy ? (locked ? 'Unlocking…' : 'Locking…') : locked ? 'Unlock account' : 'Lock account'}
    </Button>
  );
}

function InvalidateButton({ userId, notify }: { userId: string; notify: Notify }) {
  const invalidate = useInvalidateSessions(userId);
  const run = () =>
    reportOutcome(
      notify,
      () => invalidate.mutateAsync(),
      () => ({ tone: 'success', text: 'Tokens invalidated.' }),
      (error) => ({ tone: 'error', text: errorText(error, 'Failed to invalidate tokens') }),
    );
  return (
    <Button variant="secondary" onClick={run} disabled={invalidate.isPending}>
      {invalidate.isPending ? 'Invalidating…' : 'Invalidate tokens'}
    </Button>
  );
}

function DangerZone({ user, notify, onDeleted }: { user: AdminUserDetail; notify: Notify; onDeleted: () => void }) {
  const [reason, setReason] = useState('');
  const [showHard, setShowHard] = useState(false);
  const softDelete = useSoftDeleteUser(user.id);
  const id = useId();
  const deleted = user.status === 'deleted';
  const run = () =>
    reportOutcome(
      notify,
      async () => {
        await softDelete.mutateAsync(reason);
        setReason('');
      },
      () => ({ tone: 'success', text: 'User soft-deleted.' }),
      (error) => ({ tone: 'error', text: errorText(error, 'Failed to soft-delete') }),
    );
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
          disabled={deleted}
        />
      </div>
      <div className="admin-actions">
        <Button variant="danger" onClick={run} disabled={deleted || softDelete.isPending}>
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
  return (
    <div className="admin-drawer__sections">
      <section aria-label="Access">
        {typeof user.passkey_count === 'number' ? (
          <p>
            Passkeys: <strong>{user.passkey_count}</strong>
          </p>
        ) : null}
        <div className="admin-actions">
          <InvalidateButton userId={user.id} notify={notify} />
          <LockToggle user={user} notify={notify} />
          <ResetPasswordButton userId={user.id} notify={notify} />
        </div>
      </section>
      <DangerZone user={user} notify={notify} onDeleted={onDeleted} />
    </div>
  );
}
