import type { ModuleState } from '../../shared/program-types';
import { indexAttributes, indexKeys } from './table';

/**
 * "Where learners stall" (admin summary `funnel`, docs/data-model.md "Module funnel"): per module,
 * how many learners completed it and how many have it open (in progress). Kept by the writes,
 * never counted per request: the counters live as extra fields of the write-sharded
 * STATS#GLOBAL#<shard> items (functions/lib/stats.ts), added in the same transaction as the
 * progress write, and read with the other totals in the summary's one BatchGet of the shards.
 *
 * Every enrollment records what it is counted as (`funnel_completed`, `funnel_in_progress`:
 * module ids), so each transition adds exactly the difference between what was counted and
 * the new states, under the enrollment's version guard: exact whatever the write (a task that
 * completes a module, an admin override, a content change, a hard delete). An enrollment
 * written before the funnel existed carries neither list and counts as nothing: its first
 * transition (at the latest the learner's next visit, functions/program/learner-program.ts, or
 * the backfill script) counts it whole.
 */
export type FunnelField = `funnel_completed:${string}` | `funnel_in_progress:${string}`;

export const funnelField = {
  completed: (moduleId: string): FunnelField => `funnel_completed:${moduleId}`,
  inProgress: (moduleId: string): FunnelField => `funnel_in_progress:${moduleId}`,
};

/** What one enrollment is counted as: module ids completed and open. */
export interface FunnelCounted {
  funnel_completed: string[];
  funnel_in_progress: string[];
}

/** The funnel entry of derived module states (content order). */
export function funnelOf(states: Map<string, ModuleState>): FunnelCounted {
  const ids = (state: ModuleState) => [...states].filter(([, value]) => value === state).map(([id]) => id);
  return { funnel_completed: ids('completed'), funnel_in_progress: ids('open') };
}

/** What an enrollment item says it is counted as (nothing for one written before the funnel). */
export const countedOf = (item: Partial<FunnelCounted> | undefined): FunnelCounted => ({
  funnel_completed: item?.funnel_completed ?? [],
  funnel_in_progress: item?.funnel_in_progress ?? [],
});

/** The counter deltas that move an enrollment from `before` to `after` (undefined: not counted). */
export function funnelDeltas(before: FunnelCounted | undefined, after: FunnelCounted | undefined): Partial<Record<FunnelField, number>> {
  const deltas: Partial<Record<FunnelField, number>> = {};
  const add = (field: FunnelField, delta: number) => {
    const value = (deltas[field] ?? 0) + delta;
    if (value) deltas[field] = value;
    else delete deltas[field];
  };
  for (const id of before?.funnel_completed ?? []) add(funnelField.completed(id), -1);
  for (const id of before?.funnel_in_progress ?? []) add(funnelField.inProgress(id), -1);
  for (const id of after?.funnel_completed ?? []) add(funnelField.completed(id), 1);
  for (const id of after?.funnel_in_progress ?? []) add(funnelField.inProgress(id), 1);
  return deltas;
}

/**
 * The stalledAt index entry of an enrollment counted as `counted` (functions/lib/table.ts): the
 * learner is listed at the first module it has in progress, the one the funnel counts it as
 * stalled at; undefined when none is open (finished, or a staff preview, which is never counted).
 */
export const stalledAtEntry = (userId: string, counted: FunnelCounted | undefined): Record<string, string> | undefined => {
  const moduleId = counted?.funnel_in_progress[0];
  return moduleId === undefined ? undefined : indexKeys.stalledAt(moduleId, userId);
};

/**
 * The parts of an UpdateExpression that put an enrollment into the stalledAt index at `entry`
 * (SET with :stalled* values) or take it out (REMOVE).
 */
export function stalledAtUpdate(entry: Record<string, string> | undefined) {
  const [partitionKey, sortKey] = indexAttributes('stalledAt');
  if (!entry) return { set: [], remove: [partitionKey, sortKey], values: {} };
  return {
    set: [`${partitionKey} = :stalledPk`, `${sortKey} = :stalledSk`],
    remove: [],
    values: { ':stalledPk': entry[partitionKey], ':stalledSk': entry[sortKey] },
  };
}
