import type { AdminModule } from '@shared/admin-types';

/** Program order: week, then position in the week; modules without numbers keep their place last. */
export function orderedModules(modules: AdminModule[] | undefined): AdminModule[] {
  const rank = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) ? n : Number.MAX_SAFE_INTEGER);
  return (modules ?? [])
    .map((module, index) => ({ module, index }))
    .sort(
      (a, b) =>
        rank(a.module.week_no) - rank(b.module.week_no) || rank(a.module.module_number) - rank(b.module.module_number) || a.index - b.index,
    )
    .map(({ module }) => module);
}
