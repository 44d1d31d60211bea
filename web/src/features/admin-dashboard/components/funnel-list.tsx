import { Link } from 'react-router';
import type { FunnelModule } from '@shared/admin-types';
import { formatWholeCount } from '@/utils/format';
import { funnelRows, moduleLabel, reachLabel } from '../utils/funnel-rows';

/**
 * Where learners stall: one row per module in program order, drawn in HTML and CSS (no chart
 * library): each bar's length is the learners who reached the module against the most that
 * reached any, split into completed and in progress; the count and share are written out and
 * the module losing the most learners is marked. Each label links to the users list of the
 * learners stalled there (in progress at it). It reflows on a phone (label above the bar).
 */
export function FunnelList({ modules }: { modules: FunnelModule[] }) {
  const rows = funnelRows(modules);
  const starters = rows[0]?.reached ?? 0;
  const widest = Math.max(1, ...rows.map((row) => row.reached));
  const width = (count: number) => `${(count / widest) * 100}%`;
  return (
    <>
      <ul className="funnel__legend" aria-hidden="true">
        <li>
          <span className="funnel__swatch funnel__bar--completed" /> Completed
        </li>
        <li>
          <span className="funnel__swatch funnel__bar--open" /> In progress
        </li>
      </ul>
      <ol className="funnel" aria-label="Learners who reached each module, of those who started">
        {rows.map((row) => (
          <li key={row.module_id} className={`funnel__row${row.largestDrop ? ' funnel__row--drop' : ''}`} data-module={row.slug}>
            {/* the learners this row counts in progress, listed (functions/admin/stalled-users.ts) */}
            <Link className="funnel__label" to={`/admin/users?stalled_at=${encodeURIComponent(row.module_id)}`}>
              {moduleLabel(row)}
            </Link>
            <span className="funnel__track" aria-hidden="true">
              <span className="funnel__bar funnel__bar--completed" style={{ width: width(row.completed) }} />
              <span className="funnel__bar funnel__bar--open" style={{ width: width(row.in_progress) }} />
            </span>
            <span className="funnel__count">
              {reachLabel(row, starters)}
              {row.largestDrop && <strong className="funnel__drop">{` Largest drop: ${formatWholeCount(row.lost)} stop here`}</strong>}
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}
