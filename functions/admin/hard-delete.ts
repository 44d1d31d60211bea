import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { program } from '../program/content';
import type { EnrollmentRecord } from '../program/store';
import { dayOf } from '../lib/activity';
import { auditActorKey, auditPut } from '../lib/audit';
import { db, tableName } from '../lib/db';
import { ApiError, badRequest, conflict, notFound } from '../lib/errors';
import { enrollDayUpdate, statsUpdate, week1OnTime } from '../lib/stats';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserById, searchItems } from '../lib/users';
import { batchGet } from './batch-get';
import { adminAudit, type AdminCaller } from './context';
import { assertNotSelf } from './user-mutation';
import { hardDeleteAvailableAt } from './user-detail';

/**
 * Hard delete (SPEC §4): only a soft-deleted account, after the retention window, with the
 * typed email. Removes every item of the account — its USER#<id> partition, the EMAIL# guard,
 * the search items, its ACTIVITY#<day> items (found by key over the activity TTL), the login
 * back-off — and takes it out of every aggregate it was counted in. Audit entries stay, with the
 * account's personal data (email, names) replaced by ANONYMOUS.
 */
export const ANONYMOUS = 'deleted-user';
/** ACTIVITY items live this long (functions/lib/activity.ts): older days are already gone. */
const ACTIVITY_DAYS = 401;
const DAY_MS = 24 * 3600 * 1000;

type Item = Record<string, unknown> & { pk: string; sk: string };

async function partitionItems(userId: string, projection?: string): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `USER#${userId}` },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
        ...(projection ? { ProjectionExpression: projection } : {}),
      }),
    );
    items.push(...((result.Items ?? []) as Item[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** The account's ACTIVITY#<day> items (looked up by key over the days they can still exist). */
async function activityItems(userId: string, now: Date): Promise<Item[]> {
  const activityKeys = Array.from({ length: ACTIVITY_DAYS }, (_, index) => keys.activity(dayOf(new Date(now.getTime() - index * DAY_MS)), userId));
  return (await batchGet(activityKeys, 'pk,sk,day')) as Item[];
}

/** Audit entries by target (gsi1 AUDIT#ENTITY#…) or by actor (gsi2 AUDIT#ACTOR#…). */
async function auditKeysOf(entity: string, indexName: 'gsi1' | 'gsi2' = 'gsi1'): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: indexName,
        KeyConditionExpression: `${indexName}pk = :pk`,
        ExpressionAttributeValues: { ':pk': entity },
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((result.Items ?? []) as Item[]));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}

const KIND_OF: Array<[prefix: string, kind: string]> = [
  ['PROFILE', 'profile'],
  ['SESSION#', 'sessions'],
  ['ENROLLMENT#', 'enrollments'],
  ['PROGRESS#', 'progress'],
  ['TASK#', 'tasks'],
  ['CODE#', 'codes'],
  ['REMINDER#', 'reminders'],
];
const kindOf = (sk: string) => KIND_OF.find(([prefix]) => sk.startsWith(prefix))?.[1] ?? 'other';

/** `GET …/hard-delete/preview`: what a hard delete would remove (and keep anonymised). */
export async function hardDeletePreview(userId: string, now = new Date()): Promise<{ counts: Record<string, number> }> {
  const user = await getUserById(userId);
  if (!user) throw notFound();
  const counts: Record<string, number> = { profile: 0, sessions: 0, enrollments: 0, progress: 0, tasks: 0, codes: 0, reminders: 0 };
  for (const item of await partitionItems(userId, 'pk, sk')) {
    const kind = kindOf(item.sk);
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  counts.email_guard = 1;
  counts.search_entries = searchItems(user).length;
  counts.activity_days = (await activityItems(userId, now)).length;
  counts.audit_entries = (await auditKeysOf(`AUDIT#ENTITY#user#${userId}`)).length;
  counts.audit_entries_as_actor = (await auditKeysOf(auditActorKey(userId), 'gsi2')).filter((entry) => entry.entity_id !== userId).length;
  return { counts };
}

/** Replaces the account's personal data in a JSON value. */
function scrub(value: unknown, personal: Set<string>): unknown {
  if (typeof value === 'string') return personal.has(value.trim().toLowerCase()) ? ANONYMOUS : value;
  if (Array.isArray(value)) return value.map((entry) => scrub(entry, personal));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [key, ['email', 'first_name', 'last_name', 'name'].includes(key) && entry ? ANONYMOUS : scrub(entry, personal)]),
    );
  }
  return value;
}

async function anonymiseAudit(user: UserRecord, enrollmentId: string | undefined): Promise<number> {
  const personal = new Set([user.email_lower, user.first_name.toLowerCase(), user.last_name.toLowerCase(), `${user.first_name} ${user.last_name}`.toLowerCase()]);
  const found = [
    ...(await auditKeysOf(`AUDIT#ENTITY#user#${user.id}`)),
    ...(enrollmentId ? await auditKeysOf(`AUDIT#ENTITY#enrollment#${enrollmentId}`) : []),
    // entries where the account acted on someone else (e.g. an admin who is deleted later)
    ...(await auditKeysOf(auditActorKey(user.id), 'gsi2')),
  ];
  const entries = [...new Map(found.map((entry) => [`${entry.pk}|${entry.sk}`, entry])).values()];
  for (const entry of entries) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: entry.pk, sk: entry.sk },
        UpdateExpression: 'SET old_values = :old, new_values = :new, actor_email = :actor',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':old': scrub(entry.old_values ?? null, personal),
          ':new': scrub(entry.new_values ?? null, personal),
          ':actor': entry.actor_user_id === user.id || personal.has(String(entry.actor_email ?? '').toLowerCase()) ? ANONYMOUS : (entry.actor_email ?? null),
        },
      }),
    );
  }
  return entries.length;
}

async function batchDelete(items: Item[]): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    let pending = items.slice(start, start + 25).map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } }));
    for (let attempt = 0; pending.length && attempt < 6; attempt++) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
    }
    if (pending.length) throw new Error('BatchWriteItem left items unprocessed');
  }
}

const dailyActiveDecrement = (day: string) => ({
  Update: {
    TableName: tableName(),
    Key: keys.dailyActive(day),
    UpdateExpression: 'ADD #count :minus',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':minus': -1 },
  },
});

export async function hardDeleteUser(userId: string, confirmEmail: string | undefined, caller: AdminCaller, now = new Date()): Promise<{ deleted: true; counts: Record<string, number> }> {
  assertNotSelf(caller, userId);
  const user = await getUserById(userId);
  if (!user) throw notFound();
  if (user.status !== 'deleted') throw conflict('not_deleted');
  const availableAt = hardDeleteAvailableAt(user)!;
  if (now.getTime() < availableAt.getTime()) throw conflict('retention_active', { available_on: dayOf(availableAt) });
  if (!confirmEmail || confirmEmail.trim().toLowerCase() !== user.email_lower) throw badRequest('email_mismatch');

  const content = program();
  const items = await partitionItems(userId);
  const enrollment = items.find((item) => item.sk === keys.enrollment(userId, content.id).sk) as unknown as (EnrollmentRecord & Item) | undefined;
  const lastActiveDay = (user as UserRecord & { last_active_day?: string }).last_active_day;
  const onTime = Boolean(enrollment?.week1_completed_at && week1OnTime(enrollment.enrolled_at, enrollment.week1_completed_at));

  // One transaction takes the account out of every aggregate while removing the profile, the
  // guard and the enrollment: a concurrent second hard delete fails its condition and counts nothing.
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: keys.user(userId),
              ConditionExpression: '#status = :deleted AND #version = :version',
              ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
              ExpressionAttributeValues: { ':deleted': 'deleted', ':version': user.version },
            },
          },
          { Delete: { TableName: tableName(), Key: keys.email(user.email) } },
          ...(enrollment ? [{ Delete: { TableName: tableName(), Key: { pk: enrollment.pk, sk: enrollment.sk } } }] : []),
          statsUpdate({
            users_deleted: -1,
            // A staff preview enrollment was never counted (docs/journeys.md).
            ...(enrollment && !enrollment.staff
              ? {
                  enrollments_total: -1,
                  enrollment_percent_sum: -Number(enrollment.percent_complete ?? 0),
                  modules_completed_total: -Number(enrollment.completed_count ?? 0),
                  modules_total: -Number(enrollment.module_count ?? 0),
                  week1_on_time_total: onTime ? -1 : 0,
                }
              : {}),
          })!,
          ...(enrollment && !enrollment.staff ? [enrollDayUpdate(enrollment.enrolled_at, { enrolled: -1, week1_on_time: onTime ? -1 : 0 })] : []),
          ...(lastActiveDay
            ? [
                {
                  Update: {
                    TableName: tableName(),
                    Key: keys.lastActiveDay(lastActiveDay),
                    UpdateExpression: 'ADD #count :minus',
                    ExpressionAttributeNames: { '#count': 'count' },
                    ExpressionAttributeValues: { ':minus': -1 },
                  },
                },
              ]
            : []),
          auditPut(adminAudit(caller, 'admin.user.hard_delete', { type: 'user', id: userId }, { old: { status: 'deleted', deleted_at: user.deleted_at ?? null }, new: { hard_deleted: true } })),
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) throw new ApiError(409, 'conflict');
    throw error;
  }

  const rest = items.filter((item) => item.sk !== 'PROFILE' && item.sk !== enrollment?.sk);
  const activity = await activityItems(userId, now);
  const search = searchItems(user).map(({ pk, sk }) => ({ pk, sk }));
  await batchDelete([...rest, ...activity, ...search, keys.loginBackoff(user.email)]);
  // the charts' daily counts no longer include the account
  for (const item of activity) await db().send(new UpdateCommand(dailyActiveDecrement(String(item.day ?? String(item.pk).slice('ACTIVITY#'.length))).Update));
  const auditEntries = await anonymiseAudit(user, enrollment?.id);

  const counts: Record<string, number> = { profile: 1, email_guard: 1, enrollments: enrollment ? 1 : 0, search_entries: search.length, activity_days: activity.length, audit_entries_anonymised: auditEntries };
  for (const item of rest) counts[kindOf(item.sk)] = (counts[kindOf(item.sk)] ?? 0) + 1;
  return { deleted: true, counts };
}
