import { Button } from '@/components/ui/button';
import { ScrollTable } from '@/components/ui/scroll-table';
import { useOverrideModule, type ModuleOverride } from '../api/override-module';
import type { AdminEnrollment, AdminModule, AdminUserDetail } from '@shared/admin-types';
import { isBeingErased } from '../utils/account-state';
import { overrideErrorText } from '../utils/error-text';
import { formatDateTime } from '@/utils/format';
import { orderedModules } from '../utils/modules';
import { useConfirm, type ConfirmRequest } from './confirm-dialog';
import { reportOutcome, type Notify } from './notice';

const SUCCESS: Record<ModuleOverride, string> = {
  unlock: 'Module unlocked.',
  'force-complete': 'Module marked completed.',
  reopen: 'Module reopened.',
  lock: 'Module locked.',
};

/**
 * Reopen and Lock take work away from the learner, so they ask first (docs/product.md#4-states-and-transitions), in the drawer's
 * own dialog, saying what will happen.
 */
const CONFIRM: Partial<Record<ModuleOverride, (title: string) => ConfirmRequest>> = {
  reopen: (title) => ({
    title: `Reopen "${title}" for this learner?`,
    consequence: 'The module is no longer complete: the learner has to finish its tasks again and their completion goes down.',
    confirmLabel: 'Reopen module',
  }),
  lock: (title) => ({
    title: `Lock "${title}" for this learner?`,
    consequence: 'The learner can no longer open this module until it is unlocked again. Their saved answers are kept.',
    confirmLabel: 'Lock module',
  }),
};

type Run = (action: ModuleOverride, module: AdminModule | undefined) => void | Promise<void>;

function EnrollmentSection({ enrollment, run, busy }: { enrollment: AdminEnrollment; run: Run; busy: boolean }) {
  const modules = orderedModules(enrollment.modules);
  const headingId = `admin-enrollment-${enrollment.id}`;
  return (
    <section className="admin-enrollment" aria-labelledby={headingId}>
      <div className="admin-enrollment__head">
        <div>
          <h3 id={headingId}>Enrollment {enrollment.id}</h3>
          <p className="note">
            {enrollment.program_title || `Program ${enrollment.program_id ?? ''}`}
            {enrollment.status ? ` · ${enrollment.status}` : ''}
          </p>
        </div>
        <Button variant="secondary" disabled={busy} onClick={() => run('unlock', modules.find((m) => m.status === 'locked') ?? undefined)}>
          Unlock next module
        </Button>
      </div>
      <ScrollTable>
        {/* Compact at the drawer's width: the Actions column stays in view, no sideways scroll. */}
        <table className="admin-table admin-table--compact">
          <thead>
            <tr>
              <th scope="col">Module</th>
              <th scope="col">Week</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col">Completed</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {modules.map((module, index) => (
              <tr key={module.module_id ?? index}>
                <th scope="row">{module.title}</th>
                <td>{module.week_no ?? '—'}</td>
                <td>{module.status}</td>
                <td>{formatDateTime(module.started_at)}</td>
                <td>{formatDateTime(module.completed_at)}</td>
                <td>
                  <div className="admin-actions admin-actions--compact">
                    <Button
                      variant="secondary"
                      disabled={busy || module.status === 'completed'}
                      onClick={() => run('force-complete', module)}
                    >
                      Force complete
                    </Button>
                    <Button variant="secondary" disabled={busy} onClick={() => run('reopen', module)}>
                      Reopen
                    </Button>
                    <Button variant="secondary" disabled={busy || module.status === 'locked'} onClick={() => run('lock', module)}>
                      Lock
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
    </section>
  );
}

export function ModulesTab({ user, notify }: { user: AdminUserDetail; notify: Notify }) {
  const override = useOverrideModule(user.id);
  const { confirm, dialog } = useConfirm();
  const enrollments = user.enrollments ?? [];

  const run: Run = async (action, module) => {
    notify(null);
    if (!user.id) return notify({ tone: 'error', text: 'User identifier unavailable.' });
    if (!module) return notify({ tone: 'error', text: 'No locked modules to unlock.' });
    if (!module.module_id) return notify({ tone: 'error', text: 'Module identifier unavailable for override.' });
    const question = CONFIRM[action];
    if (question && !(await confirm(question(module.title)))) return;
    const moduleId = module.module_id;
    void reportOutcome(
      notify,
      () => override.mutateAsync({ action, moduleId }),
      () => ({ tone: 'success', text: SUCCESS[action] }),
      (error) => ({ tone: 'error', text: overrideErrorText(error) }),
    );
  };

  if (enrollments.length === 0) return <p className="admin-empty">No enrollments yet.</p>;
  return (
    <div className="admin-drawer__sections" aria-busy={override.isPending}>
      {override.isPending ? <p role="status">Applying override…</p> : null}
      {dialog}
      {enrollments.map((enrollment) => (
        // an account being erased takes no override: every button disabled
        <EnrollmentSection key={enrollment.id} enrollment={enrollment} run={run} busy={override.isPending || isBeingErased(user)} />
      ))}
    </div>
  );
}
