import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TaskSave, TaskSaveRequest } from '../../shared/program-types';
import { recordActivity } from '../lib/activity';
import { db, tableName } from '../lib/db';
import { count, METRIC } from '../lib/metrics';
import { failedConditions, withWriteRetries } from '../lib/retry';
import { badRequest, notFound } from '../lib/errors';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { textAnswerDone } from '../../shared/list-answer';
import type { ContentTask, Program, ProgramModule } from './content';
import { moduleLink, openModuleView } from './dashboard';
import { enrollmentTransition, loadLearnerProgram, type LearnerProgram } from './learner-program';
import { assertNotLocked, learnerTask, moduleBySlug } from './module-page';
import { deriveProgress, nextModule, requiredTasksDone, type DerivedProgress, type StoredProgress } from './progress';
import { publishedProgram } from './published-program';
import { listTaskAnswers, type TaskRecord } from './store';
import { currentDate } from '../lib/clock';

/** A save races with another tab's completion at most a few times; then the state is settled. */
const COMPLETION_ATTEMPTS = 4;

/**
 * Saves one task (idempotent: the task's own item is overwritten) and, when every required
 * task of the open module is done, completes it and opens the next module. Each task is its own
 * item, so two tabs saving different tasks at once both keep their work; the completion
 * transaction is guarded by the module's status and the enrollment's version, so it happens
 * exactly once and the counters move exactly once.
 *
 * Checkbox tasks take `done`; text tasks take `answer` and are done while the answer is not empty
 * and, for a list task (`min_items`), holds that many lines (docs/product.md#108-progress).
 */
export async function saveTask(
  user: UserRecord,
  slug: string,
  taskId: string,
  input: TaskSaveRequest,
  now = currentDate(),
): Promise<TaskSave> {
  const content = await publishedProgram();
  const module = moduleBySlug(content, slug);
  const task = module.tasks.find((candidate) => candidate.task_id === taskId);
  if (!task) throw notFound('not_found');
  const saved = taskRecord(module, task, input, now);

  let learner = await loadLearnerProgram(user, content);
  assertNotLocked(learner, module);
  await writeTask(user, learner, saved, now);
  await recordActivity(user, now);

  for (let attempt = 0; attempt < COMPLETION_ATTEMPTS; attempt++) {
    if (attempt > 0) learner = await loadLearnerProgram(user, content);
    if (learner.derived.states.get(module.module_id) !== 'open') return result(content, learner.derived, module, saved, false);
    const answers = await listTaskAnswers(user.id, learner.content.id, module.module_id);
    if (!requiredTasksDone(module, (id) => answers.get(id)?.done === true)) return result(content, learner.derived, module, saved, false);
    const completed = await completeModule(user, learner, module, now);
    if (completed) return result(content, completed, module, saved, true);
  }
  learner = await loadLearnerProgram(user, content);
  return result(content, learner.derived, module, saved, false);
}

function taskRecord(module: ProgramModule, task: ContentTask, input: TaskSaveRequest, now: Date): TaskRecord {
  const base = { task_id: task.task_id, module_id: module.module_id, updated_at: now.toISOString() };
  if (task.type === 'checkbox') {
    if (typeof input.done !== 'boolean' || input.answer !== undefined) throw badRequest('invalid_request', { fields: ['done'] });
    return { ...base, done: input.done };
  }
  if (typeof input.answer !== 'string') throw badRequest('invalid_request', { fields: ['answer'] });
  // A list task under its minimum is saved (a hint, not a block) but not done: the module does not complete on it.
  return { ...base, done: textAnswerDone(input.answer, task.min_items), answer: input.answer };
}

async function writeTask(user: UserRecord, learner: LearnerProgram, saved: TaskRecord, now: Date) {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.taskAnswer(user.id, learner.content.id, saved.module_id, saved.task_id),
        type: 'task_answer',
        user_id: user.id,
        program_id: learner.content.id,
        ...saved,
      },
    }),
  );
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(user.id),
      UpdateExpression: 'SET last_progress_at = :at ADD version :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': now.toISOString(), ':one': 1 },
    }),
  );
}

/** One transaction: module completed, next module opened, enrollment aggregates and stats. Null when another writer won. */
async function completeModule(
  user: UserRecord,
  learner: LearnerProgram,
  module: ProgramModule,
  now: Date,
): Promise<DerivedProgress | null> {
  const { content, enrollment, stored, derived } = learner;
  const at = now.toISOString();
  const after = new Map<string, StoredProgress>(stored);
  after.set(module.module_id, { module_id: module.module_id, status: 'completed', completed_at: at });
  const next = nextModule(content, module);
  const opensNext = next !== null && derived.states.get(next.module_id) === 'locked';
  if (opensNext) after.set(next.module_id, { module_id: next.module_id, status: 'open', started_at: at });
  const updated = deriveProgress(content, after);
  const { enrollmentUpdate, stats, week1 } = enrollmentTransition(user, enrollment, updated, content, now);

  const progressUpdate = (target: ProgramModule, status: 'completed' | 'open', allowedFrom: string) => ({
    Update: {
      TableName: tableName(),
      Key: keys.moduleProgress(user.id, content.id, target.module_id),
      UpdateExpression:
        'SET #status = :status, #type = :type, user_id = :user, program_id = :program, module_id = :module, started_at = if_not_exists(started_at, :at)' +
        (status === 'completed' ? ', completed_at = :at' : ''),
      ConditionExpression: 'attribute_not_exists(#status) OR #status = :from',
      ExpressionAttributeNames: { '#status': 'status', '#type': 'type' },
      ExpressionAttributeValues: {
        ':status': status,
        ':type': 'module_progress',
        ':user': user.id,
        ':program': content.id,
        ':module': target.module_id,
        ':at': at,
        ':from': allowedFrom,
      },
    },
  });

  try {
    // Only conflicts and throttling are retried here (jittered); a failed condition means another writer won.
    await withWriteRetries(() =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            progressUpdate(module, 'completed', 'open'),
            ...(opensNext ? [progressUpdate(next, 'open', 'locked')] : []),
            enrollmentUpdate,
            ...(stats ? [stats] : []),
            ...week1,
          ],
        }),
      ),
    );
    count(METRIC.moduleCompletions);
    return updated;
  } catch (error) {
    if (error instanceof TransactionCanceledException && failedConditions(error).length) return null;
    throw error;
  }
}

function result(content: Program, derived: DerivedProgress, module: ProgramModule, saved: TaskRecord, completedNow: boolean): TaskSave {
  const task = module.tasks.find((candidate) => candidate.task_id === saved.task_id)!;
  return {
    task: learnerTask(task, saved),
    module_id: module.module_id,
    slug: module.slug,
    module_state: derived.states.get(module.module_id) ?? 'locked',
    completed_now: completedNow,
    percent_complete: derived.percent,
    next_module: moduleLink(nextModule(content, module)),
    open_module: openModuleView(derived),
  };
}
