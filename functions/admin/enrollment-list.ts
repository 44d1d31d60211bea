import { readMerged, streamKeys, type Stream } from './paging';
import {
  completionFrom,
  inRounds,
  inScope,
  profilesOf,
  type ListRecord,
  type StatusScope,
  type UserListQuery,
  type UserListResponse,
} from './user-list-rows';

/**
 * A users list read from an index of enrollment items (week-1 drop-off, stalled at a module):
 * enrollments in the index's order whose account is in the status scope. Each round reads 1.5
 * pages of enrollments (a scope's filter skips some: one round mostly fills the page) with
 * their completion from the index (it holds the enrollment item), then their accounts.
 */
export function enrollmentListUsers(
  list: string,
  stream: Stream,
  scope: StatusScope | 'every',
  raw: UserListQuery,
  page: number,
  size: number,
  knownTotal: () => Promise<number | undefined>,
): Promise<UserListResponse> {
  const keep = scope === 'every' ? () => true : inScope(scope);
  const sortKey = streamKeys(stream.index).sortKey;
  return inRounds(
    list,
    raw,
    page,
    size,
    async (after, wanted) => {
      // only as many enrollments as the page needs are consumed; the cursor continues after them
      const read = await readMerged([stream], after, Math.ceil(size * 1.5), {
        maxRounds: 1,
        projection: ['user_id', 'percent_complete', sortKey],
      });
      const users = new Map((await profilesOf(read.items.map((item) => String(item.user_id)))).map((user) => [user.id, user]));
      const rows: ListRecord[] = [];
      let consumed = 0;
      for (const item of read.items) {
        if (rows.length >= wanted) break;
        consumed++;
        const user = users.get(String(item.user_id));
        if (user && keep(user)) rows.push(user);
      }
      const hasNext = consumed < read.items.length || read.hasNext;
      return {
        rows,
        completion: { of: read.items.map((item) => String(item.user_id)), found: completionFrom(read.items) },
        hasNext,
        next: consumed ? String(read.items[consumed - 1][sortKey]) : after,
      };
    },
    knownTotal,
  );
}
