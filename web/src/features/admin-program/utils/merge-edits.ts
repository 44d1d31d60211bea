import type { ContentModuleJson, ProgramContentJson } from '@shared/program-authoring';
import { contentChanges, placedModules, type ModuleField } from '@shared/program-changes';

/**
 * "Apply mine on top of theirs" after a save conflict: the other administrator's draft with the
 * author's own changes (base → mine) replayed on it, field by field. Where both changed the same
 * field, the author's wins (they see both lists first); a module they removed that the author
 * edited or added comes back, so none of the author's writing is dropped.
 */
export function applyMineOnTheirs(base: ProgramContentJson, mine: ProgramContentJson, theirs: ProgramContentJson): ProgramContentJson {
  const program = contentChanges(base, mine).program;
  const merged: ProgramContentJson = {
    ...theirs,
    title: program.includes('title') ? mine.title : theirs.title,
    description: program.includes('description') ? mine.description : theirs.description,
    weeks: theirs.weeks.map((week, index) => {
      const own = mine.weeks[index];
      if (!own) return { ...week, modules: [...week.modules] };
      return {
        ...week,
        title: program.includes(`week ${week.week_number} title`) ? own.title : week.title,
        summary: program.includes(`week ${week.week_number} summary`) ? own.summary : week.summary,
        modules: [...week.modules],
      };
    }),
  };
  const mineModules = placedModules(mine);
  for (const change of contentChanges(base, mine).modules) {
    const weekOf = (id: string) => merged.weeks.findIndex((week) => week.modules.some((module) => module.module_id === id));
    let at = weekOf(change.module_id);
    if (change.change === 'removed') {
      if (at >= 0) merged.weeks[at].modules = merged.weeks[at].modules.filter((module) => module.module_id !== change.module_id);
      continue;
    }
    const own = mineModules.get(change.module_id)!;
    const { week_number: weekNumber, ...ownModule } = own;
    if (change.change === 'added' && at >= 0) {
      // both added a module under the same new id: theirs keeps it, the author's gets the next free one
      Object.assign(ownModule, freeId(merged, own.module_id));
      at = -1;
    }
    let next: ContentModuleJson;
    if (change.change === 'added' || at < 0) next = ownModule;
    else {
      const current = merged.weeks[at].modules.find((module) => module.module_id === change.module_id)!;
      next = { ...current };
      for (const field of change.fields as ModuleField[]) if (field !== 'placement') Object.assign(next, { [field]: ownModule[field] });
    }
    const placeMine = change.change === 'added' || at < 0 || change.fields.includes('placement');
    if (at >= 0) merged.weeks[at].modules = merged.weeks[at].modules.filter((module) => module.module_id !== change.module_id);
    const targetWeek = placeMine
      ? Math.max(
          0,
          merged.weeks.findIndex((week) => week.week_number === weekNumber),
        )
      : at;
    const target = merged.weeks[targetWeek].modules;
    const index = placeMine ? Math.min(own.position - 1, target.length) : Math.min(positionIn(theirs, change.module_id), target.length);
    target.splice(index, 0, next);
  }
  return {
    ...merged,
    weeks: merged.weeks.map((week) => ({ ...week, modules: week.modules.map((module, index) => ({ ...module, position: index + 1 })) })),
  };
}

const positionIn = (content: ProgramContentJson, id: string) => (placedModules(content).get(id)?.position ?? Number.MAX_SAFE_INTEGER) - 1;

/** The first `<id>-2`, `<id>-3` … that neither a module id nor an address uses yet. */
function freeId(content: ProgramContentJson, id: string): { module_id: string; slug: string } {
  const taken = new Set(content.weeks.flatMap((week) => week.modules.flatMap((module) => [module.module_id, module.slug])));
  let n = 2;
  while (taken.has(`${id}-${n}`)) n += 1;
  return { module_id: `${id}-${n}`, slug: `${id}-${n}` };
}
