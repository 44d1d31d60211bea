import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { WEEK1_PENDING_PK, WEEK1_WINDOW_MS } from '../lib/stats';
import { INDEX, keys } from '../lib/table';
import type { UserStatus } from '../lib/user-record';
import { SEARCH_FIELDS, searchValue } from '../lib/users';
import {
  activeSince,
  completionOf,
  inRounds,
  inScope,
  profilesOf,
  STATUSES_OF,
  type ListRecord,
  type StatusScope,
  type UserFilter,
  type UserListQuery,
  type UserListResponse,
} from './user-list-rows';

/** Search items one round reads at most, per row of the page (they are small: ~150 bytes). */
const SEARCH_ITEMS_PER_ROUND = 8;

/**
 * Search: the USERSEARCH items whose value starts with the text, in key order (value, then id).
 * The items carry what the search filters on (functions/lib/users.ts searchItems), so the Query's
 * FilterExpression keeps one item per account (the first of email, first name, last name that
 * matches), in the status scope, unverified or active since the cohort's first day when asked:
 * only candidates come back, and no account is read for a non-match. A round reads as many
 * search items as the page still needs divided by the share that passed so far (guessed low at
 * first: the items are small), at most SEARCH_ITEMS_PER_ROUND × (page_size + 1). Candidates are then checked on their accounts, read
 * with their enrollments in parallel: the account is the truth (an item written before it
 * carried the filter fields passes the filter and is checked here), and the week-1 drop-off,
 * which the enrollments decide, checks up to twice the page's candidates per round.
 */
export async function searchUsers(
  list: string,
  search: string,
  scope: StatusScope,
  filter: UserFilter | undefined,
  raw: UserListQuery,
  page: number,
  size: number,
  now: Date,
): Promise<UserListResponse> {
  const partition = keys.userSearch(search, '', '').pk;
  const keep = inScope(scope);
  const since = filter === 'active7d' || filter === 'active30d' ? activeSince(filter === 'active7d' ? 7 : 30, now) : undefined;
  const cutoff = new Date(now.getTime() - WEEK1_WINDOW_MS).toISOString();
  // the drop-off cohort is decided on the enrollments: more candidates are checked per row
  const cohort = filter === 'week1_dropoff';
  const week1Field = INDEX.week1Pending.partitionKey;
  const filterOnItems = searchItemFilter(search, STATUSES_OF[scope], filter === 'unverified', since);
  // shares learnt per request: search items that are candidates, candidates in the cohort; the
  // first guess is low (an account's email and name items often both match; a filter passes fewer)
  let itemRate = filter === 'unverified' || since || (scope !== '' && scope !== 'all') ? 0.1 : 0.25;
  let cohortRate = 0.5;
  return inRounds(
    list,
    raw,
    page,
    size,
    async (after, wanted) => {
      // candidates to check: the page's rows (+1 to know whether more follow), more for a cohort
      const toCheck = cohort ? Math.min(2 * size + 2, Math.ceil(wanted / cohortRate) + 2) : wanted;
      const result = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ...filterOnItems,
          ExpressionAttributeValues: {
            ...filterOnItems.ExpressionAttributeValues,
            ':pk': partition,
            ':from': after ?? search,
            ':to': `${search}\uffff`,
          },
          ProjectionExpression: 'sk, user_id, field',
          Limit: Math.min(SEARCH_ITEMS_PER_ROUND * (size + 1), Math.ceil((toCheck + 1) / itemRate)),
        }),
      );
      const candidates = (result.Items ?? []).filter((item) => after === undefined || String(item.sk) > after);
      const scanned = result.ScannedCount ?? candidates.length;
      itemRate = Math.max(0.02, Math.min(1, candidates.length / Math.max(1, scanned)));
      const checked = candidates.slice(0, toCheck);
      // unique: an item written before `shadowed` existed can repeat an account
      const ids = [...new Set(checked.map((item) => String(item.user_id)))];
      const [profileList, enrolled] = await Promise.all([
        profilesOf(ids),
        completionOf(ids, filter === 'week1_dropoff' ? `,enrolled_at,${week1Field}` : ''),
      ]);
      const profiles = new Map(profileList.map((user) => [user.id, user]));
      const dropped = new Set(
        enrolled.enrollments
          .filter((e) => e[week1Field] === WEEK1_PENDING_PK && String(e.enrolled_at) <= cutoff)
          .map((e) => String(e.user_id)),
      );
      const rows: ListRecord[] = [];
      let consumed = 0;
      for (const item of checked) {
        if (rows.length >= wanted) break;
        consumed++;
        const user = profiles.get(String(item.user_id));
        if (!user || !keep(user)) continue;
        // shown once: through the first field (email, first name, last name) that matches
        if (SEARCH_FIELDS.find((field) => searchValue(user, field).startsWith(search)) !== item.field) continue;
        if (filter === 'unverified' && user.verified) continue;
        if (since && (user.last_active_day ?? '') < since) continue;
        if (filter === 'week1_dropoff' && !dropped.has(user.id)) continue;
        rows.push(user);
      }
      if (cohort && consumed) cohortRate = Math.max(0.1, Math.min(1, rows.length / consumed));
      // where the next round starts: after the last candidate used, else after everything read
      const allUsed = consumed === candidates.length;
      const lastRead = result.LastEvaluatedKey ? String(result.LastEvaluatedKey.sk) : undefined;
      const lastUsed = consumed ? String(candidates[consumed - 1].sk) : after;
      return {
        rows,
        completion: { of: ids, found: enrolled.completion },
        hasNext: !allUsed || lastRead !== undefined,
        next: allUsed ? (lastRead ?? lastUsed) : lastUsed,
      };
    },
    () => Promise.resolve(undefined),
  );
}

/**
 * The FilterExpression on search items: not shadowed by an earlier field for a text of this
 * length, in the status scope, unverified when asked, active since the cohort's first day. An
 * item written before these fields existed passes (attribute_not_exists) and is decided on its
 * account.
 */
function searchItemFilter(search: string, statuses: UserStatus[], unverified: boolean, activeSinceDay?: string) {
  const values: Record<string, unknown> = { ':length': search.length };
  statuses.forEach((status, index) => (values[`:status${index}`] = status));
  const inStatus = statuses.map((_, index) => `:status${index}`).join(', ');
  const parts = ['(attribute_not_exists(shadowed) OR shadowed < :length)', `(attribute_not_exists(#status) OR #status IN (${inStatus}))`];
  if (unverified) {
    values[':false'] = false;
    parts.push('(attribute_not_exists(verified) OR verified = :false)');
  }
  if (activeSinceDay) {
    // never active: no last_active_day, filtered out; an item from before the fields existed passes
    values[':since'] = activeSinceDay;
    parts.push('(attribute_not_exists(shadowed) OR last_active_day >= :since)');
  }
  return { FilterExpression: parts.join(' AND '), ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: values };
}
