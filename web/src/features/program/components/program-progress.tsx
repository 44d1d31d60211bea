import { Link } from 'react-router';
import type { DashboardWeek, LearnerModule } from '@shared/program-types';
import { paths } from '@/config/paths';
import { stateLabel } from '../utils/module-state';

function ModuleRow({ module }: { module: LearnerModule }) {
  const label = stateLabel(module.state);
  // Locked modules are not links: the page would only say "finish the previous one first".
  const reachable = module.state === 'open' || module.state === 'completed';
  return (
    <li className={`pg-module pg-module--${module.state ?? 'locked'}`}>
      <div className="pg-module__main">
        <span className="pg-eyebrow">{`Module ${module.position} • ${label}`}</span>
        {reachable ? (
          <Link className="pg-module__title" to={paths.module(module.slug)}>
            {module.title}
          </Link>
        ) : (
          <span className="pg-module__title">{module.title}</span>
        )}
      </div>
      {module.state === 'open' ? (
        <p className="pg-module__hint">Complete required tasks to finish this module.</p>
      ) : (
        <span className={`pg-badge pg-badge--${(module.state ?? 'locked').toLowerCase()}`}>{label}</span>
      )}
    </li>
  );
}

/** 'Program progress': every week and its modules with their state (docs/product.md#2-screens-and-routes). */
export function ProgramProgress({ grid }: { grid: DashboardWeek[] }) {
  return (
    <section className="pg-card" aria-labelledby="program-progress-title">
      <h2 id="program-progress-title">Program progress</h2>
      <div className="pg-weeks">
        {grid.map((week) => (
          <section key={week.week_number} className="pg-week" aria-labelledby={`week-${week.week_number}`}>
            <h3 id={`week-${week.week_number}`}>{`Week ${week.week_number}`}</h3>
            <ul className="pg-module-list">
              {week.modules.map((module) => (
                <ModuleRow key={module.module_id} module={module} />
              ))}
            </ul>
          </section>
        ))}
      </div>
    </section>
  );
}
