import { lazy, Suspense, useState } from 'react';
import { Link, Navigate } from 'react-router';
import type { ModulePage, TaskSave } from '@shared/program-types';
import { paths } from '@/config/paths';
import { sessionEndedLogin } from '@/lib/session-ended';
import { estimateMinutes, formatEstimate } from '../utils/time-estimate';
import { ApiError } from '@/lib/api-client';
import { useModule } from '../api/get-module';
import { ModuleSections } from './module-sections';
import { CheckboxTask } from './checkbox-task';
import { ProgressBar } from './progress-bar';
import { TextTask } from './text-task';
import '../program.css';

/*
 * Loaded when needed, not with the page (docs/lean-builds.md: the module page's first load stays
 * under 100 KB gzip): the completion panel only for a completed module, the status views only
 * when the module cannot be shown.
 */
const ModuleCompletePanel = lazy(() => import('./module-complete-panel').then((m) => ({ default: m.ModuleCompletePanel })));
const statusViews = () => import('./module-status-views');
const ModuleLocked = lazy(() => statusViews().then((m) => ({ default: m.ModuleLocked })));
const ModuleNotFound = lazy(() => statusViews().then((m) => ({ default: m.ModuleNotFound })));
const ModuleLoadError = lazy(() => statusViews().then((m) => ({ default: m.ModuleLoadError })));

type ErrorView =
  | { kind: 'redirect'; to: string }
  | { kind: 'locked'; requires?: { slug?: string; title?: string } }
  | { kind: 'missing' }
  | { kind: 'failed' };

/** What a failed module load means for the learner. */
function errorView(error: unknown): ErrorView {
  if (!(error instanceof ApiError)) return { kind: 'failed' };
  if (error.status === 403 && error.code === 'module_locked') {
    return { kind: 'locked', requires: error.body.requires as { slug?: string; title?: string } | undefined };
  }
  if (error.status === 401 || error.status === 403) return { kind: 'redirect', to: sessionEndedLogin() };
  if (error.status === 404) return error.code === 'not_enrolled' ? { kind: 'redirect', to: paths.enroll } : { kind: 'missing' };
  return { kind: 'failed' };
}

/** The module page; `preview` renders it inside another page (the program authoring preview), so not as its `main`. */
export function ModuleContent({
  page: { module, next_module, percent_complete, program_title },
  preview = false,
}: {
  page: ModulePage;
  preview?: boolean;
}) {
  const Page = preview ? 'div' : 'main';
  const [justCompleted, setJustCompleted] = useState(false);
  const onSaved = (result: TaskSave) => {
    if (result.completed_now) setJustCompleted(true);
  };
  const required = module.tasks.filter((task) => task.required);
  const requiredDone = required.filter((task) => task.done).length;

  return (
    <Page className="pg-page pg-module-page">
      <nav aria-label="Breadcrumb" className="pg-breadcrumb">
        <ol>
          <li>
            <Link to={paths.dashboard}>Dashboard</Link>
          </li>
          <li>{`Week ${module.week_number}${module.week_title ? `: ${module.week_title}` : ''}`}</li>
          <li aria-current="page">{module.title}</li>
        </ol>
      </nav>

      <header className="pg-module-header">
        <p className="pg-eyebrow">{`Week ${module.week_number} • Module ${module.position}`}</p>
        <h1>{module.title}</h1>
        {module.summary && <p className="pg-lead">{module.summary}</p>}
        <p className="pg-muted pg-module-meta">
          <span>{formatEstimate(estimateMinutes(module))}</span>
          {/* Phones show the reading first: one tap down to the tasks. */}
          <a className="pg-jump" href="#tasks-title">
            Jump to tasks
          </a>
        </p>
        <ProgressBar percent={percent_complete} label={`${program_title || 'Program'} progress`} />
      </header>

      <div className="pg-module-layout">
        <article className="pg-card pg-reading">
          <ModuleSections sections={module.sections} />
        </article>

        <section className="pg-card pg-tasks" aria-labelledby="tasks-title">
          <h2 id="tasks-title">Your tasks</h2>
          {required.length > 0 && (
            <p className="pg-muted" aria-live="polite">{`${requiredDone} of ${required.length} required tasks done`}</p>
          )}
          <ul className="pg-task-list">
            {module.tasks.map((task) =>
              task.type === 'text' ? (
                <TextTask key={task.task_id} slug={module.slug} task={task} onSaved={onSaved} />
              ) : (
                <CheckboxTask key={task.task_id} slug={module.slug} task={task} onSaved={onSaved} />
              ),
            )}
          </ul>
        </section>
      </div>

      {module.state === 'completed' && (
        <Suspense fallback={null}>
          <ModuleCompletePanel title={module.title} nextModule={next_module} justCompleted={justCompleted} programTitle={program_title} />
        </Suspense>
      )}
    </Page>
  );
}

function ModuleLoading() {
  return (
    <main className="pg-page">
      <p className="pg-muted" role="status" aria-live="polite">
        <span className="pg-spinner" aria-hidden="true" /> Loading module…
      </p>
    </main>
  );
}

/** /modules/{slug}: the module's material and tasks, or why it cannot be shown. */
export function ModuleView({ slug }: { slug: string }) {
  const query = useModule(slug);
  if (query.isPending) return <ModuleLoading />;
  if (query.isError) {
    const view = errorView(query.error);
    if (view.kind === 'redirect') return <Navigate to={view.to} replace />;
    return (
      <Suspense fallback={<ModuleLoading />}>
        {view.kind === 'locked' ? (
          <ModuleLocked requires={view.requires} />
        ) : view.kind === 'missing' ? (
          <ModuleNotFound />
        ) : (
          <ModuleLoadError onRetry={() => void query.refetch()} />
        )}
      </Suspense>
    );
  }
  return <ModuleContent key={slug} page={query.data} />;
}
