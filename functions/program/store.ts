import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { queryAll } from '../lib/query-pages';
import { keys, sortPrefix } from '../lib/table';
import type { StoredProgress } from './progress';

/**
 * Reads of a learner's program items (all under pk USER#<id>, see functions/lib/table.ts):
 * one GetItem for the enrollment, one Query for module progress, one Query for a module's task
 * answers. Every read is bounded by the size of the program.
 */
export interface EnrollmentRecord {
  pk: string;
  sk: string;
  type: 'enrollment';
  id: string;
  user_id: string;
  program_id: string;
  program_title: string;
  status: 'active' | 'completed';
  percent_complete: number;
  completed_count: number;
  module_count: number;
  open_module_id?: string;
  enrolled_at: string;
  updated_at: string;
  completed_at?: string;
  week1_completed_at?: string;
  version: number;
  /**
   * A staff member's preview enrollment (an admin chose "Preview the program as a learner"):
   * never counted in the learner metrics, no reminders, not in the week-1 cohort (docs/product.md#10-journeys).
   */
  staff?: boolean;
  /** What the module funnel counts this enrollment as (functions/lib/funnel.ts); absent before the funnel existed. */
  funnel_completed?: string[];
  funnel_in_progress?: string[];
}

export interface TaskRecord {
  task_id: string;
  module_id: string;
  done: boolean;
  answer?: string;
  updated_at: string;
}

export async function getEnrollment(userId: string, programId: string): Promise<EnrollmentRecord | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: keys.enrollment(userId, programId), ConsistentRead: true }));
  return result.Item as EnrollmentRecord | undefined;
}

/** Every item of `userId` whose sort key starts with `prefix` (paginated; bounded by the program size). */
async function queryUserPrefix(userId: string, prefix: string): Promise<Record<string, unknown>[]> {
  return queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':prefix': prefix },
    ConsistentRead: true,
  });
}

export async function listProgress(userId: string, programId: string): Promise<Map<string, StoredProgress>> {
  const items = await queryUserPrefix(userId, sortPrefix.progress(programId));
  return new Map(items.map((item) => [String(item.module_id), item as unknown as StoredProgress]));
}

export async function listTaskAnswers(userId: string, programId: string, moduleId: string): Promise<Map<string, TaskRecord>> {
  const items = await queryUserPrefix(userId, sortPrefix.tasks(programId, moduleId));
  return new Map(items.map((item) => [String(item.task_id), item as unknown as TaskRecord]));
}
