import { randomUUID } from 'node:crypto';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { forEachBounded } from '../../functions/lib/bounded';
import { keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { userIndexKeys } from '../../functions/lib/users';
import { program } from '../../functions/program/content';
import { newEnrollment } from '../../functions/program/enroll';
import { REMINDER_LOCAL_HOUR, reminderIndexKeys } from '../../functions/program/reminder-index';

/**
 * Learners due a daily reminder, written straight to the table (an account and an enrollment in
 * the reminder index each, as registration and enrollment leave them): the reminder tests and
 * benchmarks need hundreds to thousands of them, more than the API could register in time.
 */
function learnerItems(index: number, enrolledAt: string, emailPrefix: string): Record<string, unknown>[] {
  const content = program();
  const email = `${emailPrefix}-${index}@example.com`;
  const user: UserRecord = {
    id: randomUUID(),
    email,
    email_lower: email,
    first_name: `Due${index}`,
    last_name: 'Learner',
    password_hash: 'not-a-real-hash',
    role: 'learner',
    verified: true,
    status: 'active',
    is_locked: false,
    session_version: 0,
    reminder_frequency: 'daily',
    created_at: enrolledAt,
    updated_at: enrolledAt,
    version: 1,
  };
  return [
    { ...keys.user(user.id), type: 'user', ...userIndexKeys(user), ...user },
    {
      ...newEnrollment(user.id, content, enrolledAt),
      ...reminderIndexKeys(user.id, { frequency: 'daily', timeZone: undefined, enrolledAt }),
    },
  ];
}

/** Writes `count` due learners (addresses `<emailPrefix>-<n>@example.com`), enrolled at `enrolledAt`. */
export async function seedDueLearners(count: number, enrolledAt: string, emailPrefix = 'due'): Promise<void> {
  const batches = Array.from({ length: Math.ceil(count / 12) }, (_, batch) => batch * 12);
  await forEachBounded(batches, 16, async (start) => {
    const items = Array.from({ length: Math.min(12, count - start) }, (_, i) => learnerItems(start + i, enrolledAt, emailPrefix)).flat();
    await batchWriteItems(items.map((Item) => ({ PutRequest: { Item } })));
  });
}

/**
 * The UTC hour whose run mails a learner without a time zone (UTC): their local morning. Tests
 * run that hour's partitions (20 of them) rather than the whole day's 480, as the hourly
 * schedule does; test/integration/reminder-time-zones.test.ts covers the other hours.
 */
export const UTC_LEARNERS_HOUR = REMINDER_LOCAL_HOUR;
