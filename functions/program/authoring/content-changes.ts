import { isDeepStrictEqual } from 'node:util';
import type { ContentChanges, ContentModuleJson, ModuleChange, ProgramContentJson } from '@shared/program-authoring';

/**
 * What differs between two versions of the content, per module (matched by module id, the key
 * learner progress is stored under): shown before publishing, in the version history, in a
 * version conflict, and recorded field by field in the audit entry.
 */
type Placed = ContentModuleJson & { week_number: number };

const placedModules = (content: ProgramContentJson | null): Map<string, Placed> =>
  new Map(
    (content?.weeks ?? []).flatMap((week) =>
      week.modules.map((module) => [module.module_id, { ...module, week_number: week.week_number }] as const),
    ),
  );

const FIELDS = ['title', 'summary', 'slug', 'sections', 'tasks', 'placement'] as const;
type Field = (typeof FIELDS)[number];

/** A field as readable text (the audit log shows values side by side). */
function fieldText(module: Placed, field: Field): string {
  switch (field) {
    case 'placement':
      return `week ${module.week_number}, position ${module.position}`;
    case 'sections':
      return module.sections
        .map((section) =>
          [
            `## ${section.heading}`,
            ...section.body.map((block) => (typeof block === 'string' ? block : block.map((item) => `- ${item}`).join('\n'))),
          ].join('\n\n'),
        )
        .join('\n\n');
    case 'tasks':
      return module.tasks
        .map(
          (task) =>
            `[${task.type}${task.required ? ', required' : ''}${task.min_items ? `, ${task.min_items} items` : ''}] ${task.label}${task.hint ? ` (${task.hint})` : ''}`,
        )
        .join('\n');
    default:
      return module[field];
  }
}

export function contentChanges(before: ProgramContentJson | null, after: ProgramContentJson): ContentChanges {
  const program: string[] = [];
  if (before?.title !== after.title) program.push('title');
  if (before?.description !== after.description) program.push('description');
  after.weeks.forEach((week, index) => {
    const old = before?.weeks[index];
    if (old?.title !== week.title) program.push(`week ${week.week_number} title`);
    if (old?.summary !== week.summary) program.push(`week ${week.week_number} summary`);
  });
  const was = placedModules(before);
  const now = placedModules(after);
  const modules: ModuleChange[] = [];
  for (const [id, module] of now) {
    const old = was.get(id);
    if (!old) {
      modules.push({ module_id: id, title: module.title, change: 'added', fields: [...FIELDS] });
      continue;
    }
    // tasks compared whole (ids and limits too), key order aside
    const fields = FIELDS.filter((field) =>
      field === 'tasks' ? !isDeepStrictEqual(old.tasks, module.tasks) : fieldText(old, field) !== fieldText(module, field),
    );
    if (fields.length) modules.push({ module_id: id, title: module.title, change: 'edited', fields });
  }
  for (const [id, module] of was) if (!now.has(id)) modules.push({ module_id: id, title: module.title, change: 'removed', fields: [] });
  return { program, modules };
}

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
    for (const field of change.fields as Field[]) {
      old[`${change.module_id}.${field}`] = fieldText(was.get(change.module_id)!, field);
      next[`${change.module_id}.${field}`] = fieldText(now.get(change.module_id)!, field);
    }
  }
  return { old, new: next };
}
