import { dayOf } from '../lib/activity';
import { batchGetItems } from '../lib/batch-items';
import { queryAll } from '../lib/query-pages';
import { keys, PROFILE_SK, SK } from '../lib/table';

/** The items a hard delete finds for an account: its partition, its activity days, what they point to. */

/** ACTIVITY items live this long (functions/lib/activity.ts): older days are already gone. */
export const ACTIVITY_DAYS = 401;
export const DAY_MS = 24 * 3600 * 1000;

export type Item = Record<string, unknown> & { pk: string; sk: string };

export async function partitionItems(userId: string, projection?: string): Promise<Item[]> {
  return await queryAll<Item>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.user(userId).pk },
    ConsistentRead: true,
    ...(projection ? { ProjectionExpression: projection } : {}),
  });
}

/** The account's ACTIVITY#<day> items (looked up by key over the days they can still exist). */
export async function activityItems(userId: string, now: Date): Promise<Item[]> {
  const activityKeys = Array.from({ length: ACTIVITY_DAYS }, (_, index) =>
    keys.activity(dayOf(new Date(now.getTime() - index * DAY_MS)), userId),
  );
  return (await batchGetItems(activityKeys, { projection: ['pk', 'sk', 'day'] })) as Item[];
}

const KIND_OF: Array<[prefix: string, kind: string]> = [
  [PROFILE_SK, 'profile'],
  [SK.session, 'sessions'],
  [SK.enrollment, 'enrollments'],
  [SK.progress, 'progress'],
  [SK.task, 'tasks'],
  [SK.code, 'codes'],
  [SK.reminder, 'reminders'],
  [SK.passkey, 'passkeys'],
  [SK.browser, 'known_browsers'],
  [SK.certificate, 'certificates'],
];

/** Items outside the account's partition that one of its items points to (the certificate's public copy). */
export const linkedItems = (items: Item[]) =>
  items
    .filter((item) => item.sk.startsWith(SK.certificate) && item.verification_code)
    .map((item) => keys.certificate(String(item.verification_code)));
export const kindOf = (sk: string) => KIND_OF.find(([prefix]) => sk.startsWith(prefix))?.[1] ?? 'other';
