import type { DashboardState, DashboardSummary, ModuleLink, OpenModule } from '../../shared/program-types';
import type { Program, ProgramModule } from './content';
import type { DerivedProgress } from './progress';
import type { LearnerProgram } from './learner-program';

/** `GET /api/dashboard` */
export function dashboardSummary({ content, derived }: LearnerProgram): DashboardSummary {
  return { percent_complete: derived.percent, program_title: content.title };
}

export function openModuleView(derived: DerivedProgress): OpenModule | null {
  const open = derived.open;
  if (!open) return null;
  return {
    module_id: open.module_id,
    title: open.title,
    position: open.position,
    state: 'open',
    slug: open.slug,
    week_number: open.week_number,
  };
}

export const moduleLink = (module: ProgramModule | null): ModuleLink | null =>
  module ? { slug: module.slug, title: module.title, week_number: module.week_number } : null;

/** `GET /api/dashboard/state`: the week grid, the open module and the percent. */
export function dashboardState({ content, derived }: { content: Program; derived: DerivedProgress }): DashboardState {
  return {
    grid: content.weeks.map((week) => ({
      week_number: week.week_number,
      modules: week.modules.map((module) => ({
        module_id: module.module_id,
        title: module.title,
        position: module.position,
        state: derived.states.get(module.module_id) ?? 'locked',
        slug: module.slug,
      })),
    })),
    open_module: openModuleView(derived),
    percent_complete: derived.percent,
  };
}
