import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { walkAccounts, type WalkPosition } from '../lib/account-walk';
import { dayOf } from '../lib/activity';
import { type ActivityDay, markActivityDays, moveSearchItemsForward } from '../lib/activity-aggregation';
import { isLegacyAuditEntry, putMissingAuditRefs } from '../lib/audit';
import { batchGetItems } from '../lib/batch-items';
import { forEachBounded } from '../lib/bounded';
import { currentDate } from '../lib/clock';
import { db, tableName } from '../lib/db';
import { queryPages } from '../lib/query-pages';
import { type SignInAudit, signInAuditOf, SIGN_IN_SOURCE_FIELDS, writeSignInEntries } from '../lib/sign-in-audit';
import { AUDIT_SHARDS, auditDayPartition, keys, SK, ttlIn } from '../lib/table';
import { searchItemKeys } from '../lib/users';
import { resumeReminders } from '../program/notifications';
import { reconcileCounters, type ReconcileResult } from './counter-reconcile';

/**
 * The rebuild of what the table's stream derives (docs/runbook.md "Rebuilding derived data"),
 * from the source items, over a window of days: after an outage of the activity aggregator longer
 * than the stream's 24 hours, whatever it did not write is written here. Each write is the
 * aggregator's own, idempotent, so a rebuild is safe to run twice and while the stream runs:
 *  1. audit references: every entry of the window's day partitions (each of AUDIT_SHARDS, paged)
 *     that is not in the legacy layout gets the references it lacks (`putMissingAuditRefs`);
 *  2. for every account (the usersByStatus index, every status, 100 a page, no Scan) that signed
 *     in or was active since `from`:
 *     - sign-ins: its SESSION# items created in the window carrying a sign-in note become their
 *       `auth.login` entries, each written once (its id is the session id) — the session items are
 *       kept 8 days after their session for this (functions/lib/session.ts);
 *     - activity: its days in the window — its sessions', its task saves' (`updated_at` of its
 *       TASK# items) and its `last_active_day` — each get their ACTIVITY marker if absent, with +1
 *       on that day's DAILYACTIVE for each marker put now (`markActivityDays`);
 *     - its search items' `last_active_day` moved forward to the account's, and its reminders
 *       resumed if they were paused before its last activity;
 *  3. the last-active histogram and the global counters are not rebuilt from the window: the
 *     reconciliation (functions/admin/counter-reconcile.ts) compares them with the accounts, and
 *     runs at the end.
 * What exists is read before anything is written (entries, markers, search items: one
 * BatchGetItem a page), so a second run writes nothing but its checkpoint. The position (phase,
 * audit partition and key, account walk) and the counts are kept after every page in
 * JOB#rebuild#<from>#<to>: a rerun after a crash resumes there; a rerun after a finished run
 * starts again.
 */
export const MAX_WINDOW_DAYS = 31;
const PAGE_SIZE = 100;
const CHECKPOINT_TTL_SECONDS = 30 * 24 * 3600;
const DAY_MS = 24 * 3600 * 1000;
const ACCOUNT_FIELDS = ['id', 'status', 'email', 'first_name', 'last_name', 'last_login_at', 'last_active_day'];

export interface RebuildOptions {
  /** First day of the window, YYYY-MM-DD (UTC). */
  from: string;
  /** Last day of the window, YYYY-MM-DD, at the latest today. */
  to: string;
  /** Called after each page with the counts so far and where the rebuild stands. */
  onProgress?: (progress: RebuildProgress) => void;
  /** Accounts and audit entries a page; default 100. */
  pageSize?: number;
  /** The clock of the reconciliation at the end (default: now). */
  now?: Date;
}

export interface RebuildCounts {
  /** Audit entries of the window checked (legacy ones are left to `npm run migrate`). */
  audit_entries: number;
  /** References put (missing before). */
  audit_references: number;
  /** Accounts walked. */
  accounts: number;
  /** Of which signed in or active since `from`. */
  accounts_in_window: number;
  /** `auth.login` entries written (missing before). */
  sign_in_entries: number;
  /** ACTIVITY markers put, each with +1 on its day's DAILYACTIVE. */
  activity_markers: number;
  /** Search items whose `last_active_day` moved forward. */
  search_items: number;
  /** Accounts whose paused reminders were resumed. */
  reminders_resumed: number;
}

export interface RebuildProgress {
  phase: 'audit' | 'accounts';
  /** Where the rebuild stands, for a person: the audit partition read, or the accounts walked. */
  at: string;
  counts: RebuildCounts;
}

export interface RebuildResult {
  from: string;
  to: string;
  /** Whether it went on from an unfinished run's checkpoint. */
  resumed: boolean;
  counts: RebuildCounts;
  /** The reconciliation of the counters it ran at the end. */
  reconciliation: ReconcileResult;
}

interface Position {
  phase: 'audit' | 'accounts' | 'reconcile';
  /** Audit: the index of the day in the window, the shard, and the key to go on from. */
  audit: { day: number; shard: number; key?: Record<string, unknown> };
  walk: WalkPosition;
}

const EMPTY_COUNTS: RebuildCounts = {
  audit_entries: 0,
  audit_references: 0,
  accounts: 0,
  accounts_in_window: 0,
  sign_in_entries: 0,
  activity_markers: 0,
  search_items: 0,
  reminders_resumed: 0,
};

/** A window the rebuild refuses before reading anything. */
export class RebuildWindowError extends Error {}

/** The days from `from` to `to`; throws a RebuildWindowError on a malformed, reversed, future or too long window. */
export function windowDays(from: string, to: string, today: string): string[] {
  const valid = (day: string) => {
    const at = Date.parse(`${day}T00:00:00Z`);
    return /^\d{4}-\d{2}-\d{2}$/.test(day) && Number.isFinite(at) && dayOf(new Date(at)) === day;
  };
  if (!valid(from) || !valid(to)) throw new RebuildWindowError(`the window must be two days YYYY-MM-DD, got ${from} and ${to}`);
  if (from > to) throw new RebuildWindowError(`the window starts after it ends: ${from} > ${to}`);
  if (to > today) throw new RebuildWindowError(`the window ends in the future: ${to} > ${today}`);
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); dayOf(new Date(at)) <= to; at += DAY_MS) days.push(dayOf(new Date(at)));
  if (days.length > MAX_WINDOW_DAYS)
    throw new RebuildWindowError(`the window has ${days.length} days; rebuild at most ${MAX_WINDOW_DAYS} at a time`);
  return days;
}

/** Rebuilds what the stream derives over [from, to], then reconciles the counters. */
export async function rebuildDerivedData(options: RebuildOptions): Promise<RebuildResult> {
  const { from, to } = options;
  const now = options.now ?? currentDate();
  const days = windowDays(from, to, dayOf(now));
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const checkpointKey = keys.rebuildCheckpoint(from, to);
  const stored = (await db().send(new GetCommand({ TableName: tableName(), Key: checkpointKey, ConsistentRead: true }))).Item;
  const resumed = Boolean(stored && !stored.done);
  const position: Position = resumed
    ? (stored!.position as Position)
    : { phase: 'audit', audit: { day: 0, shard: 0 }, walk: { status: 0 } };
  const counts: RebuildCounts = resumed ? { ...EMPTY_COUNTS, ...(stored!.counts as RebuildCounts) } : { ...EMPTY_COUNTS };
  if (!resumed) await start(checkpointKey, position, now);
  const save = async (progress: Omit<RebuildProgress, 'counts'> | undefined) => {
    await checkpoint(checkpointKey, position, counts);
    if (progress) options.onProgress?.({ ...progress, counts: { ...counts } });
  };

  if (position.phase === 'audit') {
    await rebuildAuditReferences(days, position, counts, pageSize, save);
    Object.assign(position, { phase: 'accounts' });
    await save(undefined);
  }
  if (position.phase === 'accounts') {
    await walkAccounts(position.walk, ACCOUNT_FIELDS, pageSize, async (accounts, next) => {
      await rebuildAccounts(accounts as unknown as WalkedAccount[], from, to, counts);
      position.walk = next;
      await save({ phase: 'accounts', at: `${counts.accounts} walked` });
    });
    Object.assign(position, { phase: 'reconcile' });
    await save(undefined);
  }
  // the outage is the known cause of what the walk finds: corrected at once (the daily runs catch a race)
  const reconciliation = await reconcileCounters({ now, correct: true, atOnce: true });
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: checkpointKey,
      UpdateExpression: 'SET done = :done, finished_at = :at',
      ExpressionAttributeValues: { ':done': true, ':at': currentDate().toISOString() },
    }),
  );
  return { from, to, resumed, counts, reconciliation };
}

async function start(checkpointKey: Record<string, string>, position: Position, now: Date) {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...checkpointKey,
        type: 'rebuild_checkpoint',
        position,
        counts: EMPTY_COUNTS,
        done: false,
        started_at: now.toISOString(),
        expires_at: ttlIn(CHECKPOINT_TTL_SECONDS, now.getTime()),
      },
    }),
  );
}

async function checkpoint(checkpointKey: Record<string, string>, position: Position, counts: RebuildCounts) {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: checkpointKey,
      UpdateExpression: 'SET #position = :position, #counts = :counts, updated_at = :at',
      ExpressionAttributeNames: { '#position': 'position', '#counts': 'counts' },
      ExpressionAttributeValues: { ':position': position, ':counts': counts, ':at': currentDate().toISOString() },
    }),
  );
}

/** Phase 1: every day partition of the window, shard by shard, page by page, from the checkpoint. */
async function rebuildAuditReferences(
  days: readonly string[],
  position: Position,
  counts: RebuildCounts,
  pageSize: number,
  save: (progress: Omit<RebuildProgress, 'counts'>) => Promise<void>,
) {
  while (position.audit.day < days.length) {
    const partition = auditDayPartition(days[position.audit.day], position.audit.shard);
    const pages = queryPages({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      Limit: pageSize,
      ExclusiveStartKey: position.audit.key,
    });
    for await (const page of pages) {
      const entries = (page.Items ?? []).filter((item) => !isLegacyAuditEntry(item));
      counts.audit_entries += entries.length;
      counts.audit_references += await putMissingAuditRefs(entries);
      position.audit.key = page.LastEvaluatedKey;
      if (!page.LastEvaluatedKey) {
        const nextShard = (position.audit.shard + 1) % AUDIT_SHARDS;
        position.audit = { day: position.audit.day + (nextShard ? 0 : 1), shard: nextShard };
      }
      await save({ phase: 'audit', at: partition });
    }
  }
}

/** An account as the usersByStatus index lists it. */
interface WalkedAccount {
  id: string;
  status: string;
  email: string;
  first_name: string;
  last_name: string;
  last_login_at?: string;
  last_active_day?: string;
}

/** What one account's sources say happened in the window. */
interface AccountSources {
  account: WalkedAccount;
  signIns: SignInAudit[];
  days: ActivityDay[];
}

/** Phase 2, one page of accounts: read their sources, read what exists, write what is missing. */
async function rebuildAccounts(accounts: WalkedAccount[], from: string, to: string, counts: RebuildCounts) {
  counts.accounts += accounts.length;
  const inWindow = accounts.filter(
    (account) => (account.last_active_day ?? '') >= from || (account.last_login_at ?? '').slice(0, 10) >= from,
  );
  counts.accounts_in_window += inWindow.length;
  if (!inWindow.length) return;
  const sources: AccountSources[] = [];
  await forEachBounded(inWindow, 8, async (account) => {
    sources.push(await accountSources(account, from, to));
  });

  // one read of what exists: the sign-ins' entries, the activity markers, the search items and the accounts' pause state
  const active = inWindow.filter((account) => account.last_active_day);
  const entryKey = (audit: SignInAudit) => keys.audit(audit.at.toISOString(), audit.id);
  const searchKeys = new Map(active.map((account) => [account.id, searchItemKeys(account)]));
  const wanted = [
    ...sources.flatMap((source) => [...source.signIns.map(entryKey), ...source.days.map((day) => keys.activity(day.day, day.userId))]),
    ...[...searchKeys.values()].flat(),
    ...active.map((account) => keys.user(account.id)),
  ];
  const found = new Map(
    (await batchGetItems(wanted, { projection: ['pk', 'sk', 'last_active_day', 'reminders_paused_at'] })).map((item) => [
      `${String(item.pk)} ${String(item.sk)}`,
      item,
    ]),
  );
  const stored = (key: { pk: string; sk: string }) => found.get(`${key.pk} ${key.sk}`);

  counts.sign_in_entries += await writeSignInEntries(
    sources.flatMap((source) => source.signIns.filter((audit) => !stored(entryKey(audit)))),
  );
  counts.activity_markers += await markActivityDays(
    sources.flatMap((source) => source.days.filter((day) => !stored(keys.activity(day.day, day.userId)))),
  );
  await forEachBounded(active, 8, async (account) => {
    const day = account.last_active_day!;
    const behind = (searchKeys.get(account.id) ?? []).filter((key) => {
      const item = stored(key);
      return item && !(text(item, 'last_active_day') >= day);
    });
    if (behind.length) await moveSearchItemsForward(behind, day);
    counts.search_items += behind.length;
    // paused before the last activity: the stream would have resumed them on that activity
    const pausedAt = stored(keys.user(account.id))?.reminders_paused_at;
    if (typeof pausedAt === 'string' && pausedAt.slice(0, 10) <= day && (await resumeReminders(account.id))) counts.reminders_resumed += 1;
  });
}

/** The account's sign-ins (sessions with a note) and activity days in the window, from its items. */
async function accountSources(account: WalkedAccount, from: string, to: string): Promise<AccountSources> {
  const inWindow = (day: string) => day >= from && day <= to;
  const days = new Set<string>();
  const signIns: SignInAudit[] = [];
  if (account.last_active_day && inWindow(account.last_active_day)) days.add(account.last_active_day);
  // sessions are started by sign-ins only, which also set last_login_at
  if ((account.last_login_at ?? '').slice(0, 10) >= from)
    for (const item of await partitionItems(account.id, SK.session, SIGN_IN_SOURCE_FIELDS)) {
      const day = text(item, 'created_at').slice(0, 10);
      if (!inWindow(day)) continue;
      days.add(day);
      const audit = signInAuditOf((name) => text(item, name));
      if (audit) signIns.push(audit);
    }
  if ((account.last_active_day ?? '') >= from)
    for (const item of await partitionItems(account.id, SK.task, ['updated_at'])) {
      const day = text(item, 'updated_at').slice(0, 10);
      if (inWindow(day)) days.add(day);
    }
  return { account, signIns, days: [...days].map((day) => ({ userId: account.id, day })) };
}

/** A string attribute of a stored item, '' when absent. */
const text = (item: Record<string, unknown>, name: string) => (typeof item[name] === 'string' ? item[name] : '');

/** The account's items of one kind (sort-key prefix), the named attributes only, page by page. */
async function partitionItems(userId: string, prefix: string, fields: readonly string[]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':prefix': prefix },
    ExpressionAttributeNames: Object.fromEntries(fields.map((name, i) => [`#p${i}`, name])),
    ProjectionExpression: fields.map((_, i) => `#p${i}`).join(', '),
  }))
    items.push(...(page.Items ?? []));
  return items;
}
