import type { FunnelModule } from '@shared/admin-types';
import { formatWholeCount } from '@/utils/format';

export interface FunnelRow extends FunnelModule {
  /** Learners who got to this module: completed it, or have it open. */
  reached: number;
  /** Of the learners who got to the first module, the share who got here (0–100, whole). */
  share: number;
  /** Learners who got here but not to the next module (for the last one: did not finish it). */
  lost: number;
  /** The row with the largest loss (the first one on a tie; none when nobody is lost). */
  largestDrop: boolean;
}

/**
 * Where learners stall, as rows: each module's reach against the first module's, and the module
 * that loses the most learners on the way to the next one. A learner who completed module n
 * reached module n + 1 (the program opens it), so the loss of a module is the learners who have
 * it open; an administrator's override can break that order, hence never below zero.
 */
export function funnelRows(modules: FunnelModule[]): FunnelRow[] {
  const reached = modules.map((module) => module.completed + module.in_progress);
  const starters = reached[0] ?? 0;
  const lost = reached.map((count, index) =>
    Math.max(0, count - (index + 1 < reached.length ? reached[index + 1] : modules[index].completed)),
  );
  const most = Math.max(0, ...lost);
  const largest = most > 0 ? lost.indexOf(most) : -1;
  return modules.map((module, index) => ({
    ...module,
    reached: reached[index],
    share: starters > 0 ? Math.round((reached[index] / starters) * 100) : 0,
    lost: lost[index],
    largestDrop: index === largest,
  }));
}

/** "6 of 8, 75 %": how many of the learners who started got to this module. */
export const reachLabel = (row: Pick<FunnelRow, 'reached' | 'share'>, starters: number) =>
  `${formatWholeCount(row.reached)} of ${formatWholeCount(starters)}, ${row.share} %`;

/** "W1 · Title". */
export const moduleLabel = (module: Pick<FunnelModule, 'week_number' | 'title'>) => `W${module.week_number} · ${module.title}`;
