import { auditActorKey } from '../lib/audit';
import { notFound } from '../lib/errors';
import { indexPartition } from '../lib/table';
import { getUserById, searchItems } from '../lib/users';
import { boundedCount } from './paging';
import { partitionItems, activityItems, kindOf } from './account-items';

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
  now = new Date(),
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
  const [asTarget, asActor] = await Promise.all([
    boundedCount([{ index: 'auditByEntity', partition: indexPartition.auditByEntity('user', userId) }], PREVIEW_AUDIT_CAP),
    // entries where the account acted on someone else (its own are counted above)
    boundedCount(
      [
        {
          index: 'auditByActorId',
          partition: auditActorKey(userId),
          filter: { expression: '#entity <> :me', names: { '#entity': 'entity_id' }, values: { ':me': userId } },
        },
      ],
      PREVIEW_AUDIT_CAP,
    ),
  ]);
  counts.audit_entries = asTarget.total;
  counts.audit_entries_as_actor = asActor.total;
  const atLeast = [...(asTarget.estimate ? ['audit_entries'] : []), ...(asActor.estimate ? ['audit_entries_as_actor'] : [])];
  return { counts, ...(atLeast.length ? { at_least: atLeast } : {}) };
}
