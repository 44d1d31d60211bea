import type { AdminModuleRaw } from '../types';

export interface AdminModule {
  moduleId: string | undefined;
  title: string;
  week: number | undefined;
  number: number | undefined;
  status: string;
  startedAt: string | null | undefined;
  completedAt: string | null | undefined;
}

const firstNumber = (...values: unknown[]) => values.find((v): v is number => typeof v === 'number' && Number.isFinite(v));

/** Reads every spelling the server may use (docs/product.md#3-entities-and-their-fields "Admin module") into one shape. */
export function normalizeModule(raw: AdminModuleRaw): AdminModule {
  const week = firstNumber(raw.week_no, raw.week, raw.week_number, raw.weekNumber);
  const number = firstNumber(raw.module_number, raw.order_in_week, raw.position, raw.moduleNumber);
  return {
    moduleId: raw.module_id ?? raw.id ?? undefined,
    title: raw.title || (number !== undefined ? `Module ${number}` : 'Module'),
    week,
    number,
    status: raw.status ?? 'locked',
    startedAt: raw.started_at,
    completedAt: raw.completed_at,
  };
}

/** Program order: week, then position in the week; modules without numbers keep their place last. */
export function orderedModules(raws: AdminModuleRaw[] | undefined): AdminModule[] {
  const rank = (n: number | undefined) => n ?? Number.MAX_SAFE_INTEGER;
  return (raws ?? [])
    .map(normalizeModule)
    .map((module, index) => ({ module, index }))
    .sort((a, b) => rank(a.module.week) - rank(b.module.week) || rank(a.module.number) - rank(b.module.number) || a.index - b.index)
    .map(({ module }) => module);
}
