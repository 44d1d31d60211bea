import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../lib/db';
import { withWriteRetries } from '../lib/retry';
import { getUserById } from '../lib/users';
import { program } from './content';
import { enrollmentTransition } from './learner-program';
import { deriveProgress } from './progress';
import { getEnrollment, listProgress } from './store';

/**
 * Counts one enrollment written before the module funnel existed (functions/lib/funnel.ts):
 * the same version-guarded transition as a progress write, so it is counted exactly once even
 * if the learner acts at the same moment (whoever loses the guard finds it counted). Used by
 * infra/ops/backfill-funnel.ts; the learner's own next visit does the same (learner-program.ts).
 */
export async function backfillFunnelFor(userId: string, now = new Date()): Promise<'counted' | 'already' | 'none'> {
  const user = await getUserById(userId);
  if (!user) return 'none';
  const content = program();
  const enrollment = await getEnrollment(user.id, content.id);
  if (!enrollment || enrollment.staff) return 'none';
  if (enrollment.funnel_completed !== undefined) return 'already';
  const derived = deriveProgress(content, await listProgress(user.id, content.id));
  const { enrollmentUpdate, stats, week1 } = enrollmentTransition(user, enrollment, derived, content, now);
  try {
    await withWriteRetries(() => db().send(new TransactWriteCommand({ TransactItems: [enrollmentUpdate, ...(stats ? [stats] : []), ...week1] })));
    return 'counted';
  } catch (error) {
    if (error instanceof TransactionCanceledException) return 'already';
    throw error;
  }
}
