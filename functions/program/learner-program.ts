import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { withWriteRetries } from '../lib/retry';
import { notFound } from '../lib/errors';
import { countedOf, funnelDeltas, funnelOf, stalledAtEntry, stalledAtUpdate } from '../lib/funnel';
import { logger } from '../lib/logger';
import { statsUpdate, week1CompletedWrites, week1OnTime } from '../lib/stats';
import { indexAttributes, keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import type { Program } from './content';
import { publishedProgram } from './published-program';
import { deriveProgress, weekCompleted, type DerivedProgress, type StoredProgress } from './progress';
import { reminderPartition, scheduleOf } from './reminder-index';
import { getEnrollment, listProgress, type EnrollmentRecord } from './store';
import { currentDate } from '../lib/clock';
import { isConditionRefusal } from '../lib/transact-write';

export interface LearnerProgram {
  content: Program;
  enrollment: EnrollmentRecord;
  stored: Map<string, StoredProgress>;
  derived: DerivedProgress;
}

/**
 * The learner's enrollment, stored progress and derived states under the published program;
 * 404 `not_enrolled` without enrollment.
 */
export async function loadLearnerProgram(user: UserRecord, published?: Program): Promise<LearnerProgram> {
  const content = published ?? (await publishedProgram());
  const [enrollment, stored] = await Promise.all([getEnrollment(user.id, content.id), listProgress(user.id, content.id)]);
  if (!enrollment) throw notFound('not_enrolled');
  const derived = deriveProgress(content, stored);
  if (isStale(enrollment, derived)) await reconcileEnrollment(user, enrollment, derived, content);
  return { content, enrollment, stored, derived };
}

/** Enrollment attributes that follow from the derived progress (kept on the item for admin views and stats). */
export function enrollmentAggregates(derived: DerivedProgress) {
  return {
    status: derived.open ? ('active' as const) : ('completed' as const),
    percent_complete: derived.percent,
    completed_count: derived.completed,
    module_count: derived.total,
    open_module_id: derived.open?.module_id,
  };
}

function isStale(enrollment: EnrollmentRecord, derived: DerivedProgress): boolean {
  const expected = enrollmentAggregates(derived);
  return (
    enrollment.status !== expected.status ||
    enrollment.percent_complete !== expected.percent_complete ||
    enrollment.completed_count !== expected.completed_count ||
    enrollment.module_count !== expected.module_count ||
    enrollment.open_module_id !== expected.open_module_id ||
    // written before the module funnel: count it now (functions/lib/funnel.ts)
    (!enrollment.staff && enrollment.funnel_completed === undefined)
  );
}

/** Rounds a percent delta to one decimal so float noise does not accumulate in the counters. */
export const roundDelta = (value: number) => Math.round(value * 10) / 10;

/**
 * Builds the enrollment Update + stats deltas that move the stored aggregates to `derived`.
 * Guarded by the enrollment's version, so two concurrent writers cannot both apply a delta.
 */
export function enrollmentTransition(
  user: UserRecord,
  enrollment: EnrollmentRecord,
  derived: DerivedProgress,
  content: Program,
  now: Date,
) {
  const next = enrollmentAggregates(derived);
  const at = now.toISOString();
  const set = [
    '#status = :status',
    'percent_complete = :percent',
    'completed_count = :completed',
    'module_count = :total',
    'updated_at = :at',
    'version = version + :one',
  ];
  const remove: string[] = [];
  const values: Record<string, unknown> = {
    ':status': next.status,
    ':percent': next.percent_complete,
    ':completed': next.completed_count,
    ':total': next.module_count,
    ':at': at,
    ':one': 1,
    ':version': enrollment.version,
  };
  if (next.open_module_id) {
    set.push('open_module_id = :open');
    values[':open'] = next.open_module_id;
  } else remove.push('open_module_id');
  const week1Now = weekCompleted(content, derived.states, 1) && !enrollment.week1_completed_at;
  if (week1Now) {
    set.push('week1_completed_at = if_not_exists(week1_completed_at, :at)');
    // admin week-1 drop-off (lib/stats.ts): completed on time → leaves the drop-off index
    if (week1OnTime(enrollment.enrolled_at, at)) remove.push(...indexAttributes('week1Pending'));
  }
  // the module funnel (functions/lib/funnel.ts): record what this enrollment is now counted as
  const funnel = enrollment.staff ? undefined : funnelOf(derived.states);
  if (funnel) {
    set.push('funnel_completed = :funnelCompleted', 'funnel_in_progress = :funnelInProgress');
    values[':funnelCompleted'] = funnel.funnel_completed;
    values[':funnelInProgress'] = funnel.funnel_in_progress;
  }
  // the admin's "stalled at" list reads the same entry (functions/lib/funnel.ts stalledAtEntry)
  const stalled = stalledAtUpdate(stalledAtEntry(user.id, funnel));
  set.push(...stalled.set);
  remove.push(...stalled.remove);
  Object.assign(values, stalled.values);
  const week1 = week1Now && !enrollment.staff ? week1CompletedWrites(enrollment.enrolled_at, at) : { stats: {}, writes: [] };
  if (next.status === 'completed') {
    set.push('completed_at = if_not_exists(completed_at, :at)');
    remove.push(...indexAttributes('remindersDue')); // no reminders once the program is finished
  } else if (enrollment.staff) {
    remove.push('completed_at'); // a staff preview gets no reminders
  } else {
    const [remindPk, remindSk] = indexAttributes('remindersDue');
    const partition = reminderPartition(user.id, scheduleOf(user, enrollment.enrolled_at), now);
    if (partition) {
      // An entry already in the index stays where it is: after a daylight saving change the
      // schedule's hour can be one whose run has already passed today, while the entry's old
      // hour is still to come (that run moves it, and mails the learner whose morning has
      // passed). Settings changes move it themselves (notifications.ts followSchedule).
      set.push(`${remindPk} = if_not_exists(${remindPk}, :remindPk)`, `${remindSk} = :remindSk`);
      values[':remindPk'] = partition;
      values[':remindSk'] = user.id;
    } else remove.push(remindPk, remindSk); // reminders turned off: stays out of the index
    remove.push('completed_at');
  }
  return {
    enrollmentUpdate: {
      Update: {
        TableName: tableName(),
        Key: keys.enrollment(user.id, enrollment.program_id),
        UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: 'version = :version',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: values,
      },
    },
    // A staff preview never moves the learner metrics (docs/product.md#10-journeys).
    stats: enrollment.staff
      ? undefined
      : statsUpdate({
          modules_completed_total: next.completed_count - (enrollment.completed_count ?? 0),
          modules_total: next.module_count - (enrollment.module_count ?? 0),
          enrollment_percent_sum: roundDelta(next.percent_complete - (enrollment.percent_complete ?? 0)),
          ...week1.stats,
          ...funnelDeltas(countedOf(enrollment), funnel),
        }),
    /** Week-1 drop-off counters of a first week-1 completion (add to the same transaction). */
    week1: week1.writes,
  };
}

/**
 * The content changed since the enrollment's aggregates were written (a module added or
 * removed): bring them and the stats up to date. Best effort: a concurrent writer that bumped
 * the version has already written fresher aggregates.
 */
async function reconcileEnrollment(user: UserRecord, enrollment: EnrollmentRecord, derived: DerivedProgress, content: Program) {
  const { enrollmentUpdate, stats, week1 } = enrollmentTransition(user, enrollment, derived, content, currentDate());
  try {
    await withWriteRetries(() =>
      db().send(new TransactWriteCommand({ TransactItems: [enrollmentUpdate, ...(stats ? [stats] : []), ...week1] })),
    );
  } catch (error) {
    if (isConditionRefusal(error)) return; // a concurrent writer bumped the version
    logger.warn('enrollment reconcile failed', { error: error as Error });
  }
}
