import type { ContentChanges, ProgramContentJson } from '@shared/program-authoring';
import { fieldText, placedModules, type ModuleField } from '@shared/program-changes';

/** The audit side of the content comparison (shared/program-changes.ts compares). */
export const hasChanges = (changes: ContentChanges) => changes.program.length > 0 || changes.modules.length > 0;

/**
 * The audit entry's before/after: one key per changed module field ("<module id>.title"), plus
 * a module added or removed as a whole, so the audit log's diff reads field by field.
 */
export function auditValues(before: ProgramContentJson | null, after: ProgramContentJson, changes: ContentChanges) {
  const was = placedModules(before);
  const now = placedModules(after);
  const old: Record<string, unknown> = {};
  const next: Record<string, unknown> = {};
  for (const field of changes.program) {
    const read = (content: ProgramContentJson | null) => {
      if (field === 'title' || field === 'description') return content?.[field] ?? null;
      const [, number, part] = field.split(' ');
      const week = content?.weeks.find((candidate) => String(candidate.week_number) === number);
      return week ? week[part as 'title' | 'summary'] : null;
    };
    old[`program ${field}`] = read(before);
    next[`program ${field}`] = read(after);
  }
  for (const change of changes.modules) {
    if (change.change !== 'edited') {
      old[change.module_id] =
        change.change === 'removed' ? `${change.title} (${fieldText(was.get(change.module_id)!, 'placement')})` : null;
      next[change.module_id] = change.change === 'added' ? `${change.title} (${fieldText(now.get(change.module_id)!, 'placement')})` : null;
      continue;
    }
    for (const field of change.fields as ModuleField[]) {
      old[`${change.module_id}.${field}`] = fieldText(was.get(change.module_id)!, field);
      next[`${change.module_id}.${field}`] = fieldText(now.get(change.module_id)!, field);
    }
  }
  return { old, new: next };
}
