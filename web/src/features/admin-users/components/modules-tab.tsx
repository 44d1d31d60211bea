import { Button } from '../../../components/ui/button';
import { useOverrideModule, type ModuleOverride } from '../api/override-module';
import type { AdminEnrollment, AdminUserDetail } from '../types';
import { overrideErrorText } from '../utils/error-text';
import { formatDateTime } from '../utils/format';
import { orderedModules, type AdminModule } from '../utils/modules';
import { reportOutcome, type Notify } from './notice';

const SUCCESS: Record<ModuleOverride, string> = {
  unlock: 'Module unlocked.',
  'force-complete': 'Module marked completed.',
  reopen: 'Module reopened.',
  lock: 'Module locked.',
};

/** Reopen and Lock take work away from the learner, so they ask first (SPEC §4). */
const CONFIRM: Partial<Record<ModuleOverride, (title: string) => string>> = {
  reopen: (title) => `Reopen "${title}" for this learner?`,
  lock: (title) => `Lock "${title}" for this learner?`,
};

type Run = (action: ModuleOverride, module: AdminModule | undefined) => void;

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
      <div className="admin-table-scroll">
        <table className="admin-table">
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
              <tr key={module.moduleId ?? index}>
                <th scope="row">{module.title}</th>
                <td>{module.week ?? '—'}</td>
                <td>{module.status}</td>
                <td>{formatDateTime(module.startedAt)}</td>
                <td>{formatDateTime(module.completedAt)}</td>
                <td>
                  <div className="admin-actions">
                    <Button variant="secondary" disabled={busy || module.status === 'completed'} onClick={() => run('force-complete', module)}>
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
      </div>
    </section>
  );
}

export function ModulesTab({ user, notify }: { user: AdminUserDetail; notify: Notify }) {
  const override = useOverrideModule(user.id);
  const enrollments = user.enrollments ?? [];

  const run: Run = (action, module) => {
    notify(null);
    if (!user.id) return notify({ tone: 'error', text: 'User identifier unavailable.' });
    if (!module) return notify({ tone: 'error', text: 'No locked modules to unlock.' });
    if (!module.moduleId) return notify({ tone: 'error', text: 'Module identifier unavailable for override.' });
    const question = CONFIRM[action];
    if (question && !window.confirm(question(module.title))) return;
    const moduleId = module.moduleId;
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
      {enrollments.map((enrollment) => (
        <EnrollmentSection key={enrollment.id} enrollment={enrollment} run={run} busy={override.isPending} />
      ))}
    </div>
  );
}
