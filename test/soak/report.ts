import { writeFileSync } from 'node:fs';
import type { SoakResult } from './simulate';

/**
 * The run's report: `soak-report.json` (seed, population, simulated days, each fault with its
 * count, each invariant held or broken with its figures, the first violation's timeline) and a
 * readable summary printed at the end.
 */
const percentile = (values: number[], p: number) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

export const INVARIANTS = [
  'audit',
  'audit_read_your_writes',
  'counters',
  'reminders',
  'erasure',
  'learner_work',
  'server_errors',
  'iam',
  'acknowledged_state',
  'mail',
  'recovery',
  'harness',
] as const;

export interface SoakReport {
  seed: number;
  population: number;
  simulated_days: number;
  wall_seconds: number;
  requests: number;
  statuses: Record<string, number>;
  faults: Array<{ kind: string; window_hours: string; struck: number }>;
  invariants: Record<string, { held: boolean; violations: number; figures: Record<string, number | string> }>;
  lags_ms: Record<string, { n: number; p50: number; p99: number; max: number }>;
  counts: Record<string, number>;
  phases_seconds: Record<string, number>;
  dynamodb_calls: Record<string, number>;
  violations: Array<{ invariant: string; at: string; detail: string }>;
  /** The 5xx answers (each while a fault was injected, or a violation), first 100. */
  server_errors: Array<{ at: string; request: string; status: number; error: string; faults: string[] }>;
  first_violation: null | { invariant: string; at: string; detail: string; timeline: string[] };
  held: boolean;
}

export function buildReport(result: SoakResult): SoakReport {
  const { world, figures, options } = result;
  const { record, faults, clock } = world;
  const byInvariant = new Map<string, number>();
  for (const violation of record.violations) byInvariant.set(violation.invariant, (byInvariant.get(violation.invariant) ?? 0) + 1);
  const figuresOf: Record<string, string> = { audit_read_your_writes: 'audit', iam: 'server_errors', acknowledged_state: 'counters' };
  const invariants = Object.fromEntries(
    INVARIANTS.map((name) => [
      name,
      { held: !byInvariant.get(name), violations: byInvariant.get(name) ?? 0, figures: figures[name] ?? figures[figuresOf[name]] ?? {} },
    ]),
  );
  const first = [...record.violations].sort((a, b) => a.at - b.at)[0];
  return {
    seed: options.seed,
    population: options.accounts,
    simulated_days: options.days,
    wall_seconds: Math.round(result.wallMs / 1000),
    requests: record.requests,
    statuses: Object.fromEntries([...record.statuses].sort(([a], [b]) => a - b).map(([status, n]) => [String(status), n])),
    faults: faults.windows.map((window) => ({
      kind: window.kind,
      window_hours: `${window.from}–${window.to}`,
      struck: faults.struck.get(window.kind) ?? 0,
    })),
    invariants,
    lags_ms: Object.fromEntries(
      [...record.lags].map(([kind, values]) => [
        kind,
        { n: values.length, p50: percentile(values, 50), p99: percentile(values, 99), max: Math.max(0, ...values) },
      ]),
    ),
    counts: Object.fromEntries(record.counts),
    dynamodb_calls: Object.fromEntries([...world.twin.dynamo.calls].sort(([, a], [, b]) => b - a)),
    phases_seconds: Object.fromEntries([...record.phases].map(([phase, ms]) => [phase, Math.round(ms / 100) / 10])),
    server_errors: record.serverErrors.slice(0, 100).map((e) => ({
      at: new Date(e.at).toISOString(),
      request: `${e.method} ${e.path}`,
      status: e.status,
      error: e.error,
      faults: e.faults,
    })),
    violations: record.violations
      .slice(0, 200)
      .map((v) => ({ invariant: v.invariant, at: new Date(v.at).toISOString(), detail: v.detail })),
    first_violation: first
      ? {
          invariant: first.invariant,
          at: new Date(first.at).toISOString(),
          detail: first.detail,
          // what happened in the simulated hour before it: the faults struck and the other violations
          timeline: [
            ...faults.windows
              .filter((window) => clock.hourStart(window.from) <= first.at && clock.hourStart(window.to) >= first.at - 3600_000)
              .map((window) => `fault ${window.kind} active (hours ${window.from}–${window.to})`),
            ...record.violations
              .filter((v) => v.at <= first.at + 3600_000)
              .slice(0, 10)
              .map((v) => `${new Date(v.at).toISOString()} ${v.invariant}: ${v.detail}`),
          ],
        }
      : null,
    held: record.violations.length === 0,
  };
}

export function writeReport(report: SoakReport, file: string): void {
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}

export function summary(report: SoakReport): string {
  const lines = [
    `Soak: seed ${report.seed}, ${report.population} accounts, ${report.simulated_days} simulated days, ${report.wall_seconds} s wall, ${report.requests} requests`,
    `  statuses: ${Object.entries(report.statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ')}`,
    '  faults:',
    ...report.faults.map((fault) => `    ${fault.kind.padEnd(22)} hours ${fault.window_hours.padEnd(9)} struck ${fault.struck}`),
    '  invariants:',
    ...Object.entries(report.invariants).map(
      ([name, result]) =>
        `    ${result.held ? 'held  ' : 'BROKEN'} ${name.padEnd(24)} ${result.violations ? `${result.violations} violations ` : ''}${JSON.stringify(result.figures)}`,
    ),
    '  lags (ms, simulated):',
    ...Object.entries(report.lags_ms).map(([kind, lag]) => `    ${kind}: n ${lag.n}, p50 ${lag.p50}, p99 ${lag.p99}, max ${lag.max}`),
  ];
  lines.push(
    `  wall time by phase (s): ${Object.entries(report.phases_seconds)
      .map(([phase, s]) => `${phase} ${s}`)
      .join(', ')}`,
  );
  for (const violation of report.violations.slice(0, 15)) lines.push(`  ! ${violation.at} ${violation.invariant}: ${violation.detail}`);
  if (report.first_violation)
    lines.push(`  first violation: ${report.first_violation.at} ${report.first_violation.invariant}: ${report.first_violation.detail}`);
  lines.push(report.held ? '  every invariant held' : '  SOME INVARIANTS BROKE');
  return lines.join('\n');
}
