import type { ModuleState } from '../../shared/program-types';
import type { Program, ProgramModule } from './content';

/**
 * Learner module states, derived at read time from the content and the stored per-module
 * progress (pure: no I/O). Stored progress is keyed by module id, so content edits keep it:
 *  - a module with a stored status (open, completed, or locked by an admin) keeps that status;
 *  - a module without one is locked;
 *  - if no module is open and some module is not completed (a module was added after the learner
 *    finished, or the open module left the content), the first not-completed module is open, so
 *    the learner can always go on;
 *  - a module without a stored status placed before the open module (an administrator added it
 *    to a part of the program the learner has passed) follows the sequential rule: open when the
 *    module before it is completed (or it is the first module), else locked.
 * A module the learner has open that moves keeps its status at its new place. (docs/product.md#108-progress)
 */
export interface StoredProgress {
  module_id: string;
  status: ModuleState;
  started_at?: string;
  completed_at?: string;
}

export interface DerivedProgress {
  states: Map<string, ModuleState>;
  completed: number;
  total: number;
  percent: number;
  /** The first open module in program order, or null when everything is completed. */
  open: ProgramModule | null;
}

/** completed ÷ total × 100, rounded to one decimal and clamped 0–100. */
export function percentComplete(completed: number, total: number): number {
  if (total <= 0) return 0;
  const percent = Math.round((completed / total) * 1000) / 10;
  return Math.min(100, Math.max(0, percent));
}

export function deriveProgress(program: Program, stored: Map<string, StoredProgress>): DerivedProgress {
  const states = new Map<string, ModuleState>();
  for (const module of program.modules) states.set(module.module_id, stored.get(module.module_id)?.status ?? 'locked');
  const firstOpen = () => program.modules.find((module) => states.get(module.module_id) === 'open') ?? null;
  let open = firstOpen();
  if (!open) {
    open = program.modules.find((module) => states.get(module.module_id) !== 'completed') ?? null;
    if (open) states.set(open.module_id, 'open');
  }
  if (open) {
    for (const module of program.modules.slice(0, open.order)) {
      const before = program.modules[module.order - 1];
      if (!stored.has(module.module_id) && (!before || states.get(before.module_id) === 'completed')) states.set(module.module_id, 'open');
    }
    open = firstOpen();
  }
  const completed = program.modules.filter((module) => states.get(module.module_id) === 'completed').length;
  const total = program.modules.length;
  return { states, completed, total, percent: percentComplete(completed, total), open };
}

/** The module after `module` in program order (across weeks), or null after the last one. */
export function nextModule(program: Program, module: ProgramModule): ProgramModule | null {
  return program.modules[module.order + 1] ?? null;
}

/**
 * For a locked module: the module the learner has to finish first. That is the open module
 * before it when there is one, else the module just before it (admin overrides can make odd
 * combinations), else the current open module.
 */
export function requiredBefore(program: Program, derived: DerivedProgress, module: ProgramModule): ProgramModule | null {
  const earlierOpen = program.modules.slice(0, module.order).find((candidate) => derived.states.get(candidate.module_id) === 'open');
  return earlierOpen ?? program.modules[module.order - 1] ?? derived.open;
}

/** True when every required task of the module is done. */
export function requiredTasksDone(module: ProgramModule, done: (taskId: string) => boolean): boolean {
  return module.tasks.filter((task) => task.required).every((task) => done(task.task_id));
}

/** True when every module of week 1 is completed (the admin week-1 drop-off metric). */
export function weekCompleted(program: Program, states: Map<string, ModuleState>, weekNumber: number): boolean {
  const modules = program.modules.filter((module) => module.week_number === weekNumber);
  return modules.length > 0 && modules.every((module) => states.get(module.module_id) === 'completed');
}
