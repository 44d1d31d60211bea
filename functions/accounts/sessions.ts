import { deviceLabel } from '../lib/device-label';
import { queryUpTo } from '../lib/query-pages';
import { IDLE_TIMEOUT_SECONDS, sessionEndMs } from '../lib/session';
import { keyAfter, keys, SK } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { currentDate } from '../lib/clock';

/**
 * "Where you're signed in" (docs/security.md#account-security-center): the caller's own live sessions, ending
 * one, ending all but the current one (both after "Confirm it's you", ./session-revocation.ts).
 * Sessions live in the caller's partition (USER#<id> / SESSION#<sid>), so another person's session
 * id is simply not found there.
 */
export interface SessionView {
  id: string;
  current: boolean;
  created_at: string;
  last_seen_at: string;
  ip: string;
  user_agent: string;
  device: string;
}

/**
 * Session items are kept 8 days after their session's 12 hours (SESSION_KEPT_AFTER_END_SECONDS)
 * and sign-ins are rate-limited: a few pages cover any real account.
 */
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

interface SessionItem {
  pk: string;
  sk: string;
  created_at?: string;
  last_seen_at?: string;
  session_version?: number;
  ip?: string;
  user_agent?: string;
  /** Set when the session was signed out or revoked (the item is kept as its sign-in's audit source). */
  ended_at?: string;
}

export async function sessionItems(userId: string, projection?: string): Promise<SessionItem[]> {
  const { items } = await queryUpTo<SessionItem>(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :session)',
      ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':session': SK.session },
      ConsistentRead: true,
      Limit: PAGE_SIZE,
      ...(projection ? { ProjectionExpression: projection } : {}),
    },
    PAGE_SIZE * MAX_PAGES,
  );
  return items;
}

/**
 * A session still works when its absolute end (sign-in time + 12 hours; the item's TTL is later,
 * functions/lib/session.ts) and its idle timeout (from the last renewal, `last_seen_at`) have not
 * passed and it belongs to the account's current session_version (a password change, reset or
 * "invalidate sessions" bumps it).
 */
export function isLive(item: SessionItem, user: Pick<UserRecord, 'session_version'>, nowMs: number): boolean {
  if (item.ended_at || !(sessionEndMs(item.created_at) > nowMs)) return false;
  const seen = Date.parse(item.last_seen_at ?? item.created_at ?? '');
  if (!Number.isFinite(seen) || seen + IDLE_TIMEOUT_SECONDS * 1000 <= nowMs) return false;
  // Items written before versions were recorded carry none: the token check still guards them.
  return item.session_version === undefined || item.session_version === (user.session_version ?? 0);
}

export const sessionIdOf = (item: Pick<SessionItem, 'sk'>) => keyAfter(SK.session, item.sk);

export async function listSessions(user: UserRecord, currentSessionId: string, now = currentDate()): Promise<SessionView[]> {
  const views = (await sessionItems(user.id))
    .filter((item) => isLive(item, user, now.getTime()) || sessionIdOf(item) === currentSessionId)
    .map((item) => ({
      id: sessionIdOf(item),
      current: sessionIdOf(item) === currentSessionId,
      created_at: item.created_at ?? '',
      last_seen_at: item.last_seen_at ?? item.created_at ?? '',
      ip: item.ip ?? '',
      user_agent: item.user_agent ?? '',
      device: deviceLabel(item.user_agent),
    }));
  // This device first, then the most recently seen.
  return views.sort((a, b) => Number(b.current) - Number(a.current) || b.last_seen_at.localeCompare(a.last_seen_at));
}
