import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { walkAccounts, type WalkPosition } from '../lib/account-walk';
import { batchGetItems } from '../lib/batch-items';
import { forEachBounded } from '../lib/bounded';
import { db, tableName } from '../lib/db';
import { countedOf, stalledAtEntry, stalledAtUpdate } from '../lib/funnel';
import { indexAttributes, keys } from '../lib/table';
import { publishedProgram } from './published-program';
import type { EnrollmentRecord } from './store';

export interface StalledAtBackfill {
  /** enrollments put into (or moved within) the stalledAt index */
  set: number;
  /** enrollments taken out (nothing in progress) */
  cleared: number;
  /** enrollments already where their funnel entry says */
  current: number;
}

/**
 * `npm run migrate` step `backfill-stalled-at`: gives every counted enrollment written before
 * the admin's "stalled at" list its stalledAt index entry, from what the funnel counts it as
 * (`funnel_in_progress`, functions/lib/funnel.ts stalledAtEntry). Walks the accounts through
 * usersByStatus (no Scan) and reads their enrollments a page at a time. Each write is guarded by
 * the enrollment's version: a progress write meanwhile has set the entry itself, and a rerun
 * finds every entry current. Enrollments the funnel does not count yet (staff previews, those
 * older than the funnel) get theirs from the transition that counts them (`backfill-funnel`).
 */
export async function backfillStalledAt(
  from: WalkPosition = { status: 0 },
  onPage: (sofar: StalledAtBackfill, next: WalkPosition) => void = () => {},
  pageSize = 100,
): Promise<StalledAtBackfill> {
  const totals: StalledAtBackfill = { set: 0, cleared: 0, current: 0 };
  const programId = (await publishedProgram()).id;
  const [pkName, skName] = indexAttributes('stalledAt');
  await walkAccounts(from, ['id'], pageSize, async (accounts, next) => {
    const enrollments = (await batchGetItems(
      accounts.map((account) => keys.enrollment(String(account.id), programId)),
      { projection: ['user_id', 'program_id', 'staff', 'version', 'funnel_completed', 'funnel_in_progress', pkName, skName] },
    )) as Array<EnrollmentRecord & Record<string, unknown>>;
    await forEachBounded(enrollments, 16, async (enrollment) => {
      if (enrollment.staff || enrollment.funnel_in_progress === undefined) return;
      const entry = stalledAtEntry(enrollment.user_id, countedOf(enrollment));
      if (entry?.[pkName] === enrollment[pkName] && entry?.[skName] === enrollment[skName]) {
        totals.current += 1;
        return;
      }
      const update = stalledAtUpdate(entry);
      const clauses = [
        update.set.length ? `SET ${update.set.join(', ')}` : '',
        update.remove.length ? `REMOVE ${update.remove.join(', ')}` : '',
      ];
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.enrollment(enrollment.user_id, enrollment.program_id),
            UpdateExpression: clauses.filter(Boolean).join(' '),
            ConditionExpression: 'version = :version',
            ExpressionAttributeValues: { ...update.values, ':version': enrollment.version },
          }),
        );
        totals[entry ? 'set' : 'cleared'] += 1;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    });
    onPage({ ...totals }, next);
  });
  return totals;
}
