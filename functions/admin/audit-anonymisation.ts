import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { auditActorKey } from '../lib/audit';
import { forEachBounded } from '../lib/bounded';
import { db, tableName } from '../lib/db';
import { failedConditions, withWriteRetries } from '../lib/retry';
import { indexAttributes, indexPartition } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import type { Item } from './account-items';

/** The stand-in for an erased account's personal data in the audit entries it leaves behind. */
export const ANONYMOUS = 'deleted-user';

/** Replaces the account's personal data in a JSON value. */
function scrub(value: unknown, personal: Set<string>): unknown {
  if (typeof value === 'string') return personal.has(value.trim().toLowerCase()) ? ANONYMOUS : value;
  if (Array.isArray(value)) return value.map((entry) => scrub(entry, personal));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [
        key,
        ['email', 'first_name', 'last_name', 'name'].includes(key) && entry ? ANONYMOUS : scrub(entry, personal),
      ]),
    );
  }
  return value;
}

/** Sources of the account's audit entries: by target (the account, its enrollment), by actor. */
export function auditSources(
  userId: string,
  enrollmentId: string | undefined,
): Array<{ pk: string; index: 'auditByEntity' | 'auditByActorId' }> {
  return [
    { pk: indexPartition.auditByEntity('user', userId), index: 'auditByEntity' },
    ...(enrollmentId ? [{ pk: indexPartition.auditByEntity('enrollment', enrollmentId), index: 'auditByEntity' as const }] : []),
    // entries where the account acted on someone else (e.g. an admin who is deleted later)
    { pk: auditActorKey(userId), index: 'auditByActorId' },
  ];
}

/** An anonymised actor's email also leaves the actor-email indexes (it is their partition key). */
const ACTOR_EMAIL_INDEX_ATTRIBUTES = [...indexAttributes('auditByActor'), ...indexAttributes('auditByActorDomain')];
const actorAnonymised = (entry: Item, user: Pick<UserRecord, 'id'>, personal: Set<string>) =>
  entry.actor_user_id === user.id || personal.has(typeof entry.actor_email === 'string' ? entry.actor_email.toLowerCase() : '');

/** The scrubbed values of one audit entry (idempotent: a scrubbed entry scrubs to itself). */
function scrubbedEntry(entry: Item, user: Pick<UserRecord, 'id'>, personal: Set<string>): Record<string, unknown> {
  // The account's own requests: its address and browser are personal data too.
  const own = entry.actor_user_id === user.id || (entry.actor_user_id == null && entry.entity_id === user.id);
  return {
    old_values: scrub(entry.old_values ?? null, personal),
    new_values: scrub(entry.new_values ?? null, personal),
    actor_email: actorAnonymised(entry, user, personal) ? ANONYMOUS : (entry.actor_email ?? null),
    ...(own ? { ip: null, user_agent: null } : {}),
  };
}

/**
 * Scrubs a page of audit entries by updating the fields that carry personal data: audit entries
 * are never rewritten whole (no role may put or batch-write over `AUDIT#` items; only the hard
 * delete's functions may update them, docs/security.md#least-privilege-in-iam). The updates go
 * up to 100 in one transaction (each item authorised as an UpdateItem); when an entry vanished
 * meanwhile (its TTL), that transaction's entries are updated one by one, skipping it. An entry
 * read without its attributes (a narrower projection) is read first.
 */
export async function anonymiseEntries(entries: Item[], user: Pick<UserRecord, 'id'>, personal: Set<string>) {
  const updates: UpdateInput[] = [];
  for (const entry of entries) {
    const whole = typeof entry.action === 'string' && typeof entry.entity_id === 'string';
    const full = whole
      ? entry
      : ((await db().send(new GetCommand({ TableName: tableName(), Key: { pk: entry.pk, sk: entry.sk } }))).Item as Item | undefined);
    if (full) updates.push(anonymisingUpdate(full, user, personal));
  }
  const chunks: UpdateInput[][] = [];
  for (let start = 0; start < updates.length; start += ANONYMISE_TRANSACTION)
    chunks.push(updates.slice(start, start + ANONYMISE_TRANSACTION));
  await forEachBounded(chunks, 2, async (chunk) => {
    try {
      await withWriteRetries(() => db().send(new TransactWriteCommand({ TransactItems: chunk.map((Update) => ({ Update })) })));
    } catch (error) {
      if (!failedConditions(error).length) throw error;
      for (const update of chunk) {
        await db()
          .send(new UpdateCommand(update))
          .catch((failure: unknown) => {
            if ((failure as { name?: string }).name !== 'ConditionalCheckFailedException') throw failure;
          });
      }
    }
  });
}

/** Audit entries anonymised per transaction (DynamoDB's limit of actions in one). */
const ANONYMISE_TRANSACTION = 100;

interface UpdateInput {
  TableName: string;
  Key: { pk: string; sk: string };
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

function anonymisingUpdate(entry: Item, user: Pick<UserRecord, 'id'>, personal: Set<string>): UpdateInput {
  const scrubbed = scrubbedEntry(entry, user, personal);
  const names = Object.keys(scrubbed);
  return {
    TableName: tableName(),
    Key: { pk: entry.pk, sk: entry.sk },
    UpdateExpression:
      `SET ${names.map((_, index) => `#f${index} = :v${index}`).join(', ')}` +
      (actorAnonymised(entry, user, personal) ? ` REMOVE ${ACTOR_EMAIL_INDEX_ATTRIBUTES.join(', ')}` : ''),
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#f${index}`, name])),
    ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:v${index}`, scrubbed[name]])),
  };
}
