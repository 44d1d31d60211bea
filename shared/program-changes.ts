import type { ContentChanges, ContentModuleJson, ModuleChange, ProgramContentJson } from './program-authoring';

/**
 * What differs between two versions of the content, per module (matched by module id, the key
 * learner progress is stored under): shown before publishing, in the version history, in a
 * version conflict (the server's answer and the editor's "Your changes" / "Their changes"), and
 * recorded field by field in the audit entry. Shared so the editor names changes exactly as the
 * server does.
 */
export type PlacedModule = ContentModuleJson & { week_number: number };

export const placedModules = (content: ProgramContentJson | null): Map<string, PlacedModule> =>
  new Map(
    (content?.weeks ?? []).flatMap((week) =>
      week.modules.map((module) => [module.module_id, { ...module, week_number: week.week_number }] as const),
    ),
  );

export const MODULE_FIELDS = ['title', 'summary', 'slug', 'sections', 'tasks', 'placement'] as const;
export type ModuleField = (typeof MODULE_FIELDS)[number];

/** Deep equality of JSON values, key order aside. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  if (keys.length !== Object.keys(right).filter((key) => right[key] !== undefined).length) return false;
  return keys.every((key) => sameJson(left[key], right[key]));
}

/** A field as readable text (the audit log shows values side by side). */
export function fieldText(module: PlacedModule, field: ModuleField): string {
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
      modules.push({ module_id: id, title: module.title, change: 'added', fields: [...MODULE_FIELDS] });
      continue;
    }
    // tasks compared whole (ids and limits too), key order aside
    const fields = MODULE_FIELDS.filter((field) =>
      field === 'tasks' ? !sameJson(old.tasks, module.tasks) : fieldText(old, field) !== fieldText(module, field),
    );
    if (fields.length) modules.push({ module_id: id, title: module.title, change: 'edited', fields });
  }
  for (const [id, module] of was) if (!now.has(id)) modules.push({ module_id: id, title: module.title, change: 'removed', fields: [] });
  return { program, modules };
}
