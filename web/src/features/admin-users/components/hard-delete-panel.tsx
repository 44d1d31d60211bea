import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api-client';
import { useHardDeletePreview } from '../api/get-hard-delete-preview';
import { useHardDeleteUser } from '../api/hard-delete-user';
import { usePurgeStatus } from '../api/get-purge-status';
import type { AdminUserDetail } from '@shared/admin-types';
import { errorText } from '../utils/error-text';
import { formatDate } from '@/utils/format';

export const retentionText = (date: string) => `Retention window active until ${formatDate(date)}.`;

function hardDeleteError(error: unknown): string {
  if (error instanceof ApiError && error.code === 'retention_active' && typeof error.body.available_on === 'string') {
    return retentionText(error.body.available_on);
  }
  return errorText(error, 'Failed to hard delete user');
}

function ImpactPreview({ userId }: { userId: string }) {
  const preview = useHardDeletePreview(userId, true);
  if (preview.isPending) return <p role="status">Loading impact preview…</p>;
  if (preview.isError) return <FormAlert>{errorText(preview.error, 'Failed to load impact preview')}</FormAlert>;
  const counts = Object.entries(preview.data?.counts ?? {});
  const atLeast = new Set(preview.data?.at_least ?? []);
  if (counts.length === 0) return <p>No related records.</p>;
  return (
    <dl className="admin-facts">
      {counts.map(([kind, count]) => (
        <div key={kind} className="admin-facts__row">
          <dt>{kind}</dt>
          <dd>{atLeast.has(kind) ? `≥ ${count}` : count}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A purge running in the background: in progress, then done (polled). */
function PurgeProgress({ userId, onDeleted }: { userId: string; onDeleted: () => void }) {
  const purge = usePurgeStatus(userId, true);
  if (purge.isError) return <FormAlert>{errorText(purge.error, 'Failed to load the purge status')}</FormAlert>;
  if (purge.data?.status === 'done') {
    return (
      <div className="admin-actions">
        <p role="status">Purge complete. The account and its data are gone.</p>
        <Button onClick={onDeleted}>Done</Button>
      </div>
    );
  }
  return <p role="status">Purge in progress… The account is already out of every list and cannot sign in.</p>;
}

/**
 * Irreversible removal. Allowed only for a soft-deleted account whose retention window has passed,
 * and only after the admin types the account's email (docs/product.md#4-states-and-transitions, #5-validation-rules). The server checks all of it again.
 */
export function HardDeletePanel({ user, onDeleted, id }: { user: AdminUserDetail; onDeleted: () => void; id: string }) {
  const [typed, setTyped] = useState('');
  const [purging, setPurging] = useState(user.status === 'purging');
  const hardDelete = useHardDeleteUser(user.id);
  const headingId = useId();
  const confirmation = typed.trim();
  const deleted = user.status === 'deleted';
  const ready = deleted && user.hard_delete_ready === true;
  const matches = confirmation === user.email;
  const mismatch = confirmation !== '' && !matches;

  if (purging) {
    return (
      <div id={id} className="admin-hard-delete" role="region" aria-labelledby={headingId}>
        <h4 id={headingId}>Hard delete</h4>
        <PurgeProgress userId={user.id} onDeleted={onDeleted} />
      </div>
    );
  }

  return (
    <div id={id} className="admin-hard-delete" role="region" aria-labelledby={headingId}>
      <h4 id={headingId}>Hard delete</h4>
      <p>Permanently removes the account and these records:</p>
      <ImpactPreview userId={user.id} />
      {!deleted ? <p className="note">Soft-delete the account before a hard delete.</p> : null}
      {deleted && !ready ? (
        <FormAlert tone="info">
          <p>Retention window has not expired yet.</p>
          {user.hard_delete_available_at ? <p>{retentionText(user.hard_delete_available_at)}</p> : null}
        </FormAlert>
      ) : null}
      <TextField
        label="Type the user's email to confirm"
        type="email"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        autoComplete="off"
        error={mismatch ? 'Email confirmation does not match.' : undefined}
      />
      {hardDelete.isError ? <FormAlert>{hardDeleteError(hardDelete.error)}</FormAlert> : null}
      <Button
        variant="danger"
        disabled={!ready || !matches || hardDelete.isPending}
        onClick={() =>
          hardDelete.mutateAsync(confirmation).then(
            (result) => (result?.status === 'purging' ? setPurging(true) : onDeleted()),
            () => undefined /* shown by hardDelete.isError */,
          )
        }
      >
        {hardDelete.isPending ? 'Deleting…' : 'Hard delete user'}
      </Button>
    </div>
  );
}
