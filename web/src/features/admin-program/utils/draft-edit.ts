import type { ContentBlockJson, ContentModuleJson, ContentWeekJson, ProgramContentJson } from '@shared/program-authoring';

/**
 * Edits of the draft content, pure: each returns new content. Positions are renumbered 1, 2, 3 …
 * in every week after a move, as the API requires.
 */
export interface ModuleRef {
  week: number;
  index: number;
}

const renumber = (content: ProgramContentJson): ProgramContentJson => ({
  ...content,
  weeks: content.weeks.map((week) => ({ ...week, modules: week.modules.map((module, index) => ({ ...module, position: index + 1 })) })),
});

export function updateModule(content: ProgramContentJson, at: ModuleRef, change: Partial<ContentModuleJson>): ProgramContentJson {
  return {
    ...content,
    weeks: content.weeks.map((week, w) =>
      w === at.week ? { ...week, modules: week.modules.map((module, m) => (m === at.index ? { ...module, ...change } : module)) } : week,
    ),
  };
}

/** Moves a module one place up or down in program order, across a week boundary when at its edge. */
export function moveModule(content: ProgramContentJson, at: ModuleRef, direction: -1 | 1): { content: ProgramContentJson; at: ModuleRef } {
  const weeks = content.weeks.map((week) => ({ ...week, modules: [...week.modules] }));
  const modules = weeks[at.week].modules;
  const [module] = modules.splice(at.index, 1);
  let target: ModuleRef;
  if (direction === -1 && at.index === 0) target = { week: at.week - 1, index: weeks[at.week - 1]?.modules.length ?? 0 };
  else if (direction === 1 && at.index === modules.length) target = { week: at.week + 1, index: 0 };
  else target = { week: at.week, index: at.index + direction };
  if (!weeks[target.week]) return { content, at };
  weeks[target.week].modules.splice(target.index, 0, module);
  return { content: renumber({ ...content, weeks }), at: target };
}

export function removeModule(content: ProgramContentJson, at: ModuleRef): ProgramContentJson {
  return renumber({
    ...content,
    weeks: content.weeks.map((week, w) => (w === at.week ? { ...week, modules: week.modules.filter((_, m) => m !== at.index) } : week)),
  });
}

/** A new module at the end of a week, with a unique id and slug and one required task. */
export function addModule(content: ProgramContentJson, week: number): { content: ProgramContentJson; at: ModuleRef } {
  const taken = new Set(content.weeks.flatMap((w) => w.modules.flatMap((module) => [module.module_id, module.slug])));
  let n = 1;
  while (taken.has(`new-module-${n}`)) n += 1;
  const id = `new-module-${n}`;
  const module: ContentModuleJson = {
    module_id: id,
    slug: id,
    position: content.weeks[week].modules.length + 1,
    title: 'New module',
    summary: 'What this module helps the learner do.',
    sections: [{ heading: 'Introduction', body: ['Write the reading here.'] }],
    tasks: [{ task_id: 'task-1', type: 'checkbox', label: 'I did the first step.', hint: '', required: true }],
  };
  const next = { ...content, weeks: content.weeks.map((w, i) => (i === week ? { ...w, modules: [...w.modules, module] } : w)) };
  return { content: next, at: { week, index: next.weeks[week].modules.length - 1 } };
}

/**
 * A section body as the text an author edits (the learner page's format): blocks separated by a
 * blank line, bullet points as '- ' lines.
 */
export const blocksToText = (body: ContentBlockJson[]) =>
  body.map((block) => (typeof block === 'string' ? block : block.map((item) => `- ${item}`).join('\n'))).join('\n\n');

/** The text back to blocks: a block whose lines all start with '- ' is a list, any other a paragraph. */
export function textToBlocks(text: string): ContentBlockJson[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map((chunk) => {
      const lines = chunk.split('\n').map((line) => line.trim());
      return lines.every((line) => /^-\s+/.test(line)) ? lines.map((line) => line.replace(/^-\s+/, '')) : lines.join(' ');
    });
}

/** Program-level fields: the title and description learners see on the dashboard. */
export function updateProgram(
  content: ProgramContentJson,
  change: Partial<Pick<ProgramContentJson, 'title' | 'description'>>,
): ProgramContentJson {
  return { ...content, ...change };
}

/** A week's title or summary (its number and modules stay). */
export function updateWeek(
  content: ProgramContentJson,
  week: number,
  change: Partial<Pick<ContentWeekJson, 'title' | 'summary'>>,
): ProgramContentJson {
  return { ...content, weeks: content.weeks.map((w, i) => (i === week ? { ...w, ...change } : w)) };
}

/** An address part from a title: lower case, ASCII letters and digits joined by single hyphens. */
export const slugFromTitle = (title: string) =>
  title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
