import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../lib/db';
import { withWriteRetries } from '../lib/retry';
import { walkAccounts, type WalkPosition } from '../lib/account-walk';
import { getUserById } from '../lib/users';
import { publishedProgram } from './published-program';
import { enrollmentTransition } from './learner-program';
import { deriveProgress } from './progress';
import { getEnrollment, listProgress } from './store';
import { currentDate } from '../lib/clock';
import { isConditionRefusal } from '../lib/transact-write';

/**
 * Counts one enrollment written before the module funnel existed (functions/lib/funnel.ts):
 * the same version-guarded transition as a progress write, so it is counted exactly once even
 * if the learner acts at the same moment (whoever loses the guard finds it counted). Used by
 * the `backfill-funnel` step of `npm run migrate` (infra/ops/migration-steps.ts); the learner's own next visit does the same (learner-program.ts).
 */
export async function backfillFunnelFor(userId: string, now = currentDate()): Promise<'counted' | 'already' | 'none'> {
  const user = await getUserById(userId);
  if (!user) return 'none';
  const content = await publishedProgram();
  const enrollment = await getEnrollment(user.id, content.id);
  if (!enrollment || enrollment.staff) return 'none';
  if (enrollment.funnel_completed !== undefined) return 'already';
  const derived = deriveProgress(content, await listProgress(user.id, content.id));
  const { enrollmentUpdate, stats, week1 } = enrollmentTransition(user, enrollment, derived, content, now);
  try {
    await withWriteRetries(() =>
      db().send(new TransactWriteCommand({ TransactItems: [enrollmentUpdate, ...(stats ? [stats] : []), ...week1] })),
    );
    return 'counted';
  } catch (error) {
    if (isConditionRefusal(error)) return 'already';
    throw error;
  }
}

/**
 * Walks every account (functions/lib/account-walk.ts) from `from`, counting each uncounted
 * enrollment; `onPage` gets the totals and the position to resume from after each page.
 */
export async function backfillFunnel(
  from: WalkPosition = { status: 0 },
  onPage: (totals: Record<'counted' | 'already' | 'none', number>, next: WalkPosition) => void = () => {},
  pageSize = 100,
): Promise<Record<'counted' | 'already' | 'none', number>> {
  const totals = { counted: 0, already: 0, none: 0 };
  await walkAccounts(from, ['id'], pageSize, async (accounts, next) => {
    for (const account of accounts) totals[await backfillFunnelFor(String(account.id))]++;
    onPage({ ...totals }, next);
  });
  return totals;
}
