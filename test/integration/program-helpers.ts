import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { db, tableName } from '../../functions/lib/db';
import { indexQuery, keys, type IndexName } from '../../functions/lib/table';
import type { DashboardState, LearnerTask, ModulePage, TaskSave } from '../../shared/program-types';
import type { ApiClient } from '../helpers/api';
import { storedAuditEntries } from '../helpers/audit-entries';

/** Does every required task of a module through the API, as a learner would; returns the last save. */
export async function finishModule(client: ApiClient, slug: string): Promise<TaskSave> {
  const page = await client.get<ModulePage>(`/api/modules/${slug}`);
  expect(page.status, `GET module ${slug}`).toBe(200);
  let last: TaskSave | undefined;
  for (const task of page.body.module.tasks.filter((t: LearnerTask) => t.required)) {
    const save = await client.put<TaskSave>(`/api/modules/${slug}/tasks/${task.task_id}`, doneBody(task));
    expect(save.status, `PUT ${slug}/${task.task_id}`).toBe(200);
    last = save.body;
  }
  return last!;
}

/** A done answer: a list task (`min_items`) gets one line per item it asks for. */
export const doneBody = (task: Pick<LearnerTask, 'type' | 'min_items'>) =>
  task.type === 'checkbox'
    ? { done: true }
    : {
        answer: task.min_items
          ? Array.from({ length: task.min_items }, (_, i) => `My answer ${i + 1}, written with care.`).join('\n')
          : 'My answer, written with care.',
      };

/** Finishes every module in order; returns the number of modules completed. */
export async function finishProgram(client: ApiClient): Promise<number> {
  let count = 0;
  for (;;) {
    const state = await client.get<DashboardState>('/api/dashboard/state');
    if (!state.body.open_module) return count;
    const save = await finishModule(client, state.body.open_module.slug);
    expect(save.completed_now).toBe(true);
    count += 1;
  }
}

/** Changes the account the way an admin action would (lock, soft-delete). */
export async function setUserFields(userId: string, fields: Record<string, unknown>) {
  const names = Object.keys(fields);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(userId),
      UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, fields[name]])),
    }),
  );
}

/** Every item of one index partition, as stored (the test tables are small: one page). */
export async function indexItems(name: IndexName, partition: string): Promise<Array<Record<string, unknown>>> {
  const result = await db().send(new QueryCommand({ TableName: tableName(), ...indexQuery(name, partition) }));
  return result.Items ?? [];
}

/** Every audit entry about one account, as stored (the entries its user references name). */
export const auditItemsOf = (userId: string) => storedAuditEntries('user', userId);
