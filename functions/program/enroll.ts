import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { count, METRIC } from '../lib/metrics';
import { withWriteRetries } from '../lib/retry';
import { funnelField } from '../lib/funnel';
import { enrollmentCreatedWrites, statsUpdate, week1PendingIndexKeys } from '../lib/stats';
import { indexKeys, keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { publishedProgram } from './published-program';
import { reminderIndexKeys, scheduleOf } from './reminder-index';
import type { Program } from './content';
import type { EnrollmentRecord } from './store';
import { currentDate } from '../lib/clock';

export const ENROLL_MESSAGE = 'Welcome to the 4-Week Career Program!';

/**
 * Enrolls the learner: one enrollment per learner per program, whatever the number of
 * concurrent calls (the conditional Put cancels the whole transaction, stats included, when the
 * enrollment exists). The first module opens; the rest are locked (no item = locked).
 * Returns false when the learner was already enrolled.
 */
/** A new enrollment's own fields: active, nothing done, the first module open (no index keys). */
export function newEnrollment(
  userId: string,
  content: Pick<Program, 'id' | 'title' | 'modules'>,
  at: string,
): Omit<EnrollmentRecord, 'staff'> {
  return {
    ...keys.enrollment(userId, content.id),
    type: 'enrollment',
    id: randomUUID(),
    user_id: userId,
    program_id: content.id,
    program_title: content.title,
    status: 'active',
    percent_complete: 0,
    completed_count: 0,
    module_count: content.modules.length,
    open_module_id: content.modules[0].module_id,
    enrolled_at: at,
    updated_at: at,
    version: 1,
  };
}

export async function enroll(user: UserRecord, now = currentDate()): Promise<boolean> {
  const content = await publishedProgram();
  const at = now.toISOString();
  const first = content.modules[0];
  // Staff previews stay out of the learner metrics, reminders and the week-1 cohort.
  const staff = user.role === 'admin';
  const enrollment: EnrollmentRecord = {
    ...newEnrollment(user.id, content, at),
    ...(staff
      ? { staff: true }
      : {
          ...reminderIndexKeys(user.id, scheduleOf(user, at), now),
          ...week1PendingIndexKeys(user.id, at), // admin week-1 drop-off cohort until week 1 is done on time
          // the module funnel: the first module is in progress (functions/lib/funnel.ts)
          funnel_completed: [],
          funnel_in_progress: [first.module_id],
          ...indexKeys.stalledAt(first.module_id, user.id), // the admin's "stalled at" list of that module
        }),
  };
  try {
    // Conflicts on the counter shards (an enrollment wave) are retried with jitter; a 503 when they outlast the retries.
    await withWriteRetries(() =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName(), Item: enrollment, ConditionExpression: 'attribute_not_exists(pk)' } },
            {
              Put: {
                TableName: tableName(),
                Item: {
                  ...keys.moduleProgress(user.id, content.id, first.module_id),
                  type: 'module_progress',
                  user_id: user.id,
                  program_id: content.id,
                  module_id: first.module_id,
                  status: 'open',
                  started_at: at,
                },
              },
            },
            {
              Update: {
                TableName: tableName(),
                Key: keys.user(user.id),
                UpdateExpression: 'SET last_enrollment_at = :at ADD version :one',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':at': at, ':one': 1 },
              },
            },
            ...(staff
              ? []
              : [
                  statsUpdate({
                    enrollments_total: 1,
                    modules_total: content.modules.length,
                    enrollment_percent_sum: 0,
                    [funnelField.inProgress(first.module_id)]: 1,
                  })!,
                  ...enrollmentCreatedWrites(at),
                ]),
          ],
        }),
      ),
    );
    count(METRIC.enrollments);
    return true;
  } catch (error) {
    if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') {
      return false;
    }
    throw error;
  }
}
