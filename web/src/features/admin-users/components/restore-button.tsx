import { Button } from '@/components/ui/button';
import { useRestoreUser } from '../api/restore-user';
import { errorText } from '../utils/error-text';
import { reportOutcome, type Notify } from './notice';

/** Offered both in the soft-delete banner and in the Danger zone. */
export function RestoreButton({ userId, notify, label }: { userId: string; notify: Notify; label: string }) {
  const restore = useRestoreUser(userId);
  const run = () =>
    reportOutcome(
      notify,
      () => restore.mutateAsync(),
      () => ({ tone: 'success', text: 'User restored.' }),
      (error) => ({ tone: 'error', text: errorText(error, 'Failed to restore user') }),
    );
  return (
    <Button variant="secondary" onClick={run} disabled={restore.isPending}>
      {restore.isPending ? 'Restoring…' : label}
    </Button>
  );
}
