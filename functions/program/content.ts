import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { CONTENT_ID_CHARS, SLUG_CHARS } from '../../shared/key-values';
import { listMinimum } from '../../shared/list-answer';
import { PROGRAM_LIMITS } from '../../shared/program-authoring';
import type { ModuleSection } from '../../shared/program-types';
import programMeta from './content/program.json';
import week1 from './content/week-1.json';
import week2 from './content/week-2.json';
import week3 from './content/week-3.json';
import week4 from './content/week-4.json';

/**
 * The 4-Week Career Program content: its schema and rules, and the bundled first version. The
 * bundle (JSON imports) is what the seed (seed-content.ts) stores as version 1 on an empty
 * table; from then on administrators author the program and learners follow the published
 * version (published-program.ts, docs/product.md#program-authoring). Learner progress is stored
 * per module id, so content edits (reordering, new modules, new tasks) never lose progress:
 * states are derived from the published content plus the stored progress (progress.ts).
 */

/** A section body block: a paragraph, or a list of bullet points. */
const blockSchema = z.union([z.string().check(z.minLength(1)), z.array(z.string().check(z.minLength(1))).check(z.minLength(1))]);

const taskSchema = z.strictObject({
  task_id: z.string().check(z.regex(CONTENT_ID_CHARS)),
  type: z.enum(['checkbox', 'text']),
  label: z.string().check(z.minLength(1)),
  hint: z.string(),
  required: z.boolean(),
  /** A list task: done only once the answer holds this many items, one per line (shared/list-answer.ts). */
  min_items: z.optional(z.int().check(z.minimum(2))),
});

const moduleSchema = z.strictObject({
  module_id: z.string().check(z.regex(CONTENT_ID_CHARS)),
  slug: z.string().check(z.regex(SLUG_CHARS)),
  position: z.int().check(z.minimum(1)),
  title: z.string().check(z.minLength(1)),
  summary: z.string().check(z.minLength(1)),
  sections: z
    .array(z.strictObject({ heading: z.string().check(z.minLength(1)), body: z.array(blockSchema).check(z.minLength(1)) }))
    .check(z.minLength(1)),
  tasks: z.array(taskSchema),
});

const weekSchema = z.strictObject({
  week_number: z.int(),
  title: z.string().check(z.minLength(1)),
  summary: z.string().check(z.minLength(1)),
  modules: z.array(moduleSchema),
});

const programSchema = z.strictObject({
  program_id: z.string().check(z.regex(/^[a-z0-9-]+$/)),
  title: z.string().check(z.minLength(1)),
  description: z.string().check(z.minLength(1)),
  weeks: z.array(weekSchema),
});

export type ProgramContent = z.infer<typeof programSchema>;
export type ContentWeek = z.infer<typeof weekSchema>;
export type ContentModule = z.infer<typeof moduleSchema>;
export type ContentTask = z.infer<typeof taskSchema>;

/** A module placed in the program: its week and its index in program order. */
export interface ProgramModule extends ContentModule {
  week_number: number;
  week_title: string;
  /** 0-based index in program order (week by week, position by position). */
  order: number;
}

export interface Program {
  id: string;
  title: string;
  description: string;
  weeks: ContentWeek[];
  /** Every module in program order. */
  modules: ProgramModule[];
  bySlug: Map<string, ProgramModule>;
  byId: Map<string, ProgramModule>;
  /** Hash of the content. */
  hash: string;
  /** The published version this is (0: the bundled content, before the seed stored version 1). */
  version: number;
}

/** Content rules beyond the schema; returns every problem found (empty = valid). */
export function contentProblems(content: ProgramContent): string[] {
  const problems: string[] = [];
  const weekNumbers = content.weeks.map((week) => week.week_number);
  if (weekNumbers.join(',') !== '1,2,3,4') problems.push(`weeks must be 1..4 in order, got ${weekNumbers.join(',')}`);
  const slugs = new Set<string>();
  const ids = new Set<string>();
  for (const week of content.weeks) {
    if (week.modules.length < 1 || week.modules.length > PROGRAM_LIMITS.modulesPerWeek)
      problems.push(`week ${week.week_number} must have 1 to ${PROGRAM_LIMITS.modulesPerWeek} modules`);
    week.modules.forEach((module, index) => {
      const where = `week ${week.week_number} module ${module.module_id}`;
      if (module.position !== index + 1) problems.push(`${where}: position ${module.position}, expected ${index + 1}`);
      if (slugs.has(module.slug)) problems.push(`${where}: duplicate slug ${module.slug}`);
      if (ids.has(module.module_id)) problems.push(`${where}: duplicate module id`);
      slugs.add(module.slug);
      ids.add(module.module_id);
      if (module.tasks.length < 1 || module.tasks.length > PROGRAM_LIMITS.tasksPerModule)
        problems.push(`${where}: must have 1 to ${PROGRAM_LIMITS.tasksPerModule} tasks`);
      if (!module.tasks.some((task) => task.required)) problems.push(`${where}: needs at least one required task`);
      const taskIds = new Set(module.tasks.map((task) => task.task_id));
      if (taskIds.size !== module.tasks.length) problems.push(`${where}: duplicate task id`);
      // A label that asks for a list ("List at least five …") declares that minimum, so the
      // server's rule and the learner's hint never disagree with the text (shared/list-answer.ts).
      for (const task of module.tasks) {
        const asked = task.type === 'text' ? listMinimum(task.label) : null;
        if ((task.min_items ?? null) !== asked)
          problems.push(`${where} task ${task.task_id}: min_items ${task.min_items ?? 'none'}, the label asks for ${asked ?? 'no list'}`);
      }
    });
  }
  return problems;
}

/** The schema check alone, with each issue's path ("weeks.0.modules.1.title"). */
export function parseProgramContent(raw: unknown) {
  const result = programSchema.safeParse(raw);
  return {
    success: result.success,
    data: result.data,
    issues: (result.error?.issues ?? []).map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  };
}

/** Validates raw content and builds the lookups; throws on any problem. */
export function buildProgram(raw: unknown, version = 0): Program {
  const content = programSchema.parse(raw);
  const problems = contentProblems(content);
  if (problems.length) throw new Error(`invalid program content:\n${problems.join('\n')}`);
  const modules: ProgramModule[] = content.weeks.flatMap((week) =>
    week.modules.map((module) => ({ ...module, week_number: week.week_number, week_title: week.title, order: 0 })),
  );
  modules.forEach((module, index) => (module.order = index));
  return {
    id: content.program_id,
    title: content.title,
    description: content.description,
    weeks: content.weeks,
    modules,
    bySlug: new Map(modules.map((module) => [module.slug, module])),
    byId: new Map(modules.map((module) => [module.module_id, module])),
    hash: createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 16),
    version,
  };
}

/** The raw content as stored in the repo. */
export const rawProgramContent = { ...programMeta, weeks: [week1, week2, week3, week4] };

let cached: Program | undefined;
/**
 * The bundled program (validated once per cold start): its id, and version 1 as the seed stores
 * it. What learners see is the published version: publishedProgram() (published-program.ts).
 */
export function program(): Program {
  cached ??= buildProgram(rawProgramContent);
  return cached;
}

/** Section body blocks as plain text: paragraphs separated by a blank line, bullets as '- ' lines. */
export function sectionText(section: ContentModule['sections'][number]): ModuleSection {
  const body = section.body.map((block) => (typeof block === 'string' ? block : block.map((item) => `- ${item}`).join('\n'))).join('\n\n');
  return { heading: section.heading, body };
}
