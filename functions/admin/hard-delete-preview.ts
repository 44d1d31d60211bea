import { notFound } from '../lib/errors';
import { auditRefPartition, indexPartition } from '../lib/table';
import { getUserById, searchItems } from '../lib/users';
import { readStream, streamKeys, streamSortKey, type Stream } from './paging';
import { partitionItems, activityItems, kindOf } from './account-items';
import { currentDate } from '../lib/clock';

/**
 * Audit entries the preview counts per source at most: an account with a long history (an admin
 * with years of actions) is answered "at least" instead of reading all of it (`at_least`).
 */
export const PREVIEW_AUDIT_CAP = 500;

/**
 * `GET …/hard-delete/preview`: what a hard delete would remove (and keep anonymised). Audit
 * entries are counted up to PREVIEW_AUDIT_CAP per source; a count that reached it is a lower
 * bound, named in `at_least` (the console shows "≥ N").
 */
export async function hardDeletePreview(
  userId: string,
  now = currentDate(),
): Promise<{ counts: Record<string, number>; at_least?: string[] }> {
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
  // entries where the account acted on someone else (its own are counted above)
  const notMe = { expression: '#entity <> :me', names: { '#entity': 'entity_id' }, values: { ':me': userId } };
  const [asTarget, asActor] = await Promise.all([
    distinctCount(
      [
        { index: 'table', partition: auditRefPartition.entity('user', userId) },
        { index: 'auditByEntity', partition: indexPartition.auditByEntity('user', userId) },
      ],
      PREVIEW_AUDIT_CAP,
    ),
    distinctCount(
      [
        { index: 'table', partition: auditRefPartition.actor(userId), filter: notMe },
        { index: 'auditByActorId', partition: indexPartition.auditByActorId(userId), filter: notMe },
      ],
      PREVIEW_AUDIT_CAP,
    ),
  ]);
  counts.audit_entries = asTarget.total;
  counts.audit_entries_as_actor = asActor.total;
  const atLeast = [...(asTarget.estimate ? ['audit_entries'] : []), ...(asActor.estimate ? ['audit_entries_as_actor'] : [])];
  return { counts, ...(atLeast.length ? { at_least: atLeast } : {}) };
}

/**
 * The entries of streams whose items have the same sort keys (an entry's references and its
 * legacy index copies: one entry is counted once however many hold it), up to `cap` entries and
 * COUNT_READS queries per stream: exact below that, else a lower bound with `estimate`.
 */
async function distinctCount(streams: Stream[], cap: number): Promise<{ total: number; estimate: boolean }> {
  const seen = new Set<string>();
  for (const stream of streams) {
    let after: string | undefined;
    for (let reads = 0; ; reads++) {
      if (seen.size >= cap || reads >= COUNT_READS) return { total: seen.size, estimate: true };
      const read = await readStream(stream, after, cap - seen.size, [streamKeys(stream.index).sortKey]);
      read.items.forEach((item) => seen.add(streamSortKey(stream, item)));
      if (read.examinedTo === null) break;
      after = read.examinedTo;
    }
  }
  return { total: seen.size, estimate: false };
}

/** Queries per stream at most (a page stops at 1 MB read, or short of the cap when a filter skipped items). */
const COUNT_READS = 5;
