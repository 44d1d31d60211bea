import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { nowSeconds } from '../lib/clock';
import { db, tableName } from '../lib/db';
import { ApiError } from '../lib/errors';
import { logger } from '../lib/logger';
import { count, METRIC } from '../lib/metrics';
import { deferredNoticePartition } from '../lib/table';
import { getUserById } from '../lib/users';
import { MailBudgetRefused } from './mail-budget';
import { takeIfRoom } from './rate-limit';
import { deliverNotice, isUnavailable, type NoticeRequest } from './security-notices';

/**
 * The deferred security notices (./security-notices.ts), sent by the hourly job
 * (functions/jobs/reminders.ts), oldest first, at most `max` a run in pages of DRAIN_PAGE. Each
 * goes through the same limits as a notice sent at once: the account's notices of the hour
 * (silently: one left waiting goes in a later hour) and the mail budget, where a notice beyond
 * its account's daily allowance waits while the open share is used up. When SES itself does not
 * send (throttled, out of quota, down) the run stops: the rest waits for the next hour. A sent
 * notice is deleted after its send (a crash in between sends it twice rather than never).
 */
export const DRAIN_PAGE = 100;
export const DRAIN_MAX = 500;

export interface DrainSummary {
  sent: number;
  /** Left for a later run: the account's hour or the open share was full, or SES did not send. */
  waiting: number;
  /** Deleted unsent: past DEFERRED_NOTICE_DAYS, the account gone, or SES refused the address for good. */
  dropped: number;
}

type Outcome = 'sent' | 'waiting' | 'dropped' | 'stop';

export async function drainDeferredNotices({ max = DRAIN_MAX }: { max?: number } = {}): Promise<DrainSummary> {
  const summary: DrainSummary = { sent: 0, waiting: 0, dropped: 0 };
  let startKey: Record<string, unknown> | undefined;
  let handled = 0;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': deferredNoticePartition },
        Limit: Math.min(DRAIN_PAGE, max - handled),
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      handled += 1;
      const outcome = await drainOne(item);
      if (outcome === 'stop') {
        summary.waiting += 1;
        logger.info('deferred notices: SES does not send now, the rest waits', { ...summary });
        return summary;
      }
      summary[outcome] += 1;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey && handled < max);
  if (handled) logger.info('deferred notices', { ...summary });
  return summary;
}

async function drainOne(item: Record<string, unknown>): Promise<Outcome> {
  const notice = item.notice as NoticeRequest;
  const remove = () => db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk } }));
  const drop = async (reason: string) => {
    await remove();
    count(METRIC.securityNoticesDropped);
    logger.warn('deferred security notice dropped', { event: notice.event, reason });
    return 'dropped' as const;
  };
  // DynamoDB's TTL deletes within days of the time, not at it
  if (Number(item.expires_at) <= nowSeconds()) return drop('expired');
  const user = await getUserById(String(item.user_id));
  if (!user || user.status === 'purging') return drop('account_gone');
  const hour = await takeIfRoom('securityNoticesPerAccount', user.email);
  if (!hour) return 'waiting';
  try {
    await deliverNotice(user, notice);
  } catch (error) {
    await hour();
    if (error instanceof MailBudgetRefused) return 'waiting';
    if (isUnavailable(error)) return 'stop';
    if (error instanceof ApiError) return drop('rejected');
    throw error;
  }
  await remove();
  return 'sent';
}
