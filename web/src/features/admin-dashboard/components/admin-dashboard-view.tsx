import { lazy, Suspense } from 'react';
import { LoadingText } from '@/components/ui/loading-text';
import { FormAlert } from '@/components/ui/form-alert';
import { ApiError } from '@/lib/api-client';
import { useSummary, type AdminSummary, type DailyCount, type FunnelModule } from '../api/get-summary';
import {
  formatCount as count,
  formatDateTime,
  formatFractionPercent as fractionPercent,
  formatMonthDay,
  formatPercent as percent,
} from '@/utils/format';
import { FunnelList } from './funnel-list';
import { MetricCard } from './metric-card';
import '../admin-dashboard.css';

// Victory stays out of every other bundle: this import is the only way the chart code loads.
const ActivesChart = lazy(() => import('./actives-chart'));

/** docs/product.md#8-error-catalogue: the server's error field, else 'HTTP {status}', else the named fallback. */
function summaryError(error: unknown): string {
  if (error instanceof ApiError) return error.code ?? `HTTP ${error.status}`;
  return 'Failed to load admin summary';
}

function ChartPanel({ title, data }: { title: string; data: DailyCount[] }) {
  const id = `chart-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <figure className="chart-panel" aria-labelledby={id}>
      <h2 id={id} className="chart-panel__title">
        {title}
      </h2>
      <Suspense fallback={<p className="chart-panel__loading">Loading chart…</p>}>
        <ActivesChart data={data} label={title} />
      </Suspense>
      {/* The same numbers as text, for screen readers. A table ignores the clip of .visually-hidden
          (its height grows with its rows): the block around it clips it, so it adds no blank
          scroll area under the page (docs/product.md#109-users-table). */}
      <div className="visually-hidden">
        <table>
          <caption>{title} by day</caption>
          <tbody>
            {data.map((point) => (
              <tr key={point.date}>
                <th scope="row">{formatMonthDay(point.date)}</th>
                <td>{point.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** Where learners stall: a bar per module, with the same numbers as a table for screen readers. */
function FunnelPanel({ modules }: { modules: FunnelModule[] }) {
  const title = 'Where Learners Stall';
  return (
    <figure className="chart-panel chart-panel--wide" aria-labelledby="chart-funnel">
      <h2 id="chart-funnel" className="chart-panel__title">
        {title}
      </h2>
      {modules.length ? <FunnelList modules={modules} /> : <p className="note">No modules yet.</p>}
      {/* clipped by a block, like the activity charts' tables (a table ignores .visually-hidden's clip) */}
      <div className="visually-hidden">
        <table>
          <caption>{title}: learners per module</caption>
          <thead>
            <tr>
              <th scope="col">Module</th>
              <th scope="col">Completed</th>
              <th scope="col">In progress</th>
            </tr>
          </thead>
          <tbody>
            {modules.map((module) => (
              <tr key={module.module_id}>
                <th scope="row">
                  Week {module.week_number}: {module.title}
                </th>
                <td>{module.completed}</td>
                <td>{module.in_progress}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

function Cards({ summary }: { summary: AdminSummary }) {
  const { cards, drill } = summary;
  return (
    <div className="metric-grid">
      <MetricCard title="Users" value={count(cards.total_users)} subtitle={`${count(cards.active_7d)} active (7d)`} />
      <MetricCard title="Enrollments" value={count(cards.total_enrollments)} subtitle="Across all programs" />
      <MetricCard
        title="Avg Completion"
        value={percent(cards.avg_completion)}
        subtitle={`Aggregate: ${percent(summary.completion?.aggregate_pct)}`}
      />
      <MetricCard title="Active 7d" value={count(cards.active_7d)} to={drill?.active_7d} />
      <MetricCard title="Active 30d" value={count(cards.active_30d)} to={drill?.active_30d} />
      <MetricCard
        title="Verification Rate"
        value={fractionPercent(cards.verification_rate)}
        subtitle="Click to view unverified accounts"
        to={drill?.unverified}
      />
      {/* With no enrollment a week old the drop-off measures no one: "—" and why, never 0.0 %. */}
      <MetricCard
        title="Week-1 Drop-off"
        value={cards.week1_measured === 0 ? '—' : fractionPercent(cards.week1_dropoff)}
        subtitle={summary.dropoff_method === '7d' ? '7-day completion window' : 'Overall completion window'}
        note={cards.week1_measured === 0 ? 'No enrollment is a week old yet' : undefined}
        to={drill?.week1_dropoff}
      />
    </div>
  );
}

/** /admin/dashboard: seven metric cards, two activity charts and the module funnel, refreshed every minute. */
export function AdminDashboardView() {
  const summary = useSummary();
  return (
    <main className="page admin-dashboard">
      <h1>Admin Dashboard</h1>
      {summary.isPending ? (
        <LoadingText>Loading admin dashboard…</LoadingText>
      ) : summary.isError ? (
        <FormAlert>Error loading admin dashboard: {summaryError(summary.error)}</FormAlert>
      ) : (
        <>
          <p className="note">As of {formatDateTime(summary.data.as_of_utc)}</p>
          {/* the activity counters are aggregated from the table's stream (docs/scale-writes.md) */}
          <p className="note">Active-learner figures may trail sign-ins by a few seconds.</p>
          <Cards summary={summary.data} />
          <div className="chart-grid">
            <ChartPanel title="7-Day Actives" data={summary.data.series?.actives_7d_daily ?? []} />
            <ChartPanel title="30-Day Actives" data={summary.data.series?.actives_30d_daily ?? []} />
          </div>
          <FunnelPanel modules={summary.data.funnel ?? []} />
        </>
      )}
    </main>
  );
}
