import type { LearnerTask, ModulePage } from '../../shared/program-types';
import { forbidden, notFound } from '../lib/errors';
import type { UserRecord } from '../lib/user-record';
import { sectionText, type ContentTask, type Program, type ProgramModule } from './content';
import { moduleLink } from './dashboard';
import { loadLearnerProgram, type LearnerProgram } from './learner-program';
import { nextModule, requiredBefore } from './progress';
import { publishedProgram } from './published-program';
import { listTaskAnswers, type TaskRecord } from './store';

/** The content module for a slug; 404 `not_found` when the slug is unknown. */
export function moduleBySlug(content: Program, slug: string): ProgramModule {
  const module = content.bySlug.get(slug);
  if (!module) throw notFound('not_found');
  return module;
}

/** A locked module's content is not served: 403 naming the module to finish first. */
export function assertNotLocked(learner: LearnerProgram, module: ProgramModule): void {
  if (learner.derived.states.get(module.module_id) !== 'locked') return;
  const before = requiredBefore(learner.content, learner.derived, module);
  throw forbidden('module_locked', { requires: before ? { slug: before.slug, title: before.title } : null });
}

export function learnerTask(task: ContentTask, saved: TaskRecord | undefined): LearnerTask {
  return {
    task_id: task.task_id,
    type: task.type,
    label: task.label,
    hint: task.hint,
    required: task.required,
    ...(task.min_items !== undefined ? { min_items: task.min_items } : {}),
    done: saved?.done ?? false,
    ...(task.type === 'text' ? { answer: saved?.answer ?? '' } : {}),
    updated_at: saved?.updated_at ?? null,
  };
}

/** `GET /api/modules/{slug}` */
export async function getModulePage(user: UserRecord, slug: string): Promise<ModulePage> {
  const content = await publishedProgram();
  const module = moduleBySlug(content, slug);
  const learner = await loadLearnerProgram(user, content);
  assertNotLocked(learner, module);
  const answers = await listTaskAnswers(user.id, learner.content.id, module.module_id);
  return {
    module: {
      module_id: module.module_id,
      slug: module.slug,
      title: module.title,
      summary: module.summary,
      week_number: module.week_number,
      week_title: module.week_title,
      position: module.position,
      state: learner.derived.states.get(module.module_id) ?? 'locked',
      sections: module.sections.map(sectionText),
      tasks: module.tasks.map((task) => learnerTask(task, answers.get(task.task_id))),
    },
    next_module: moduleLink(nextModule(learner.content, module)),
    percent_complete: learner.derived.percent,
    program_title: learner.content.title,
  };
}
