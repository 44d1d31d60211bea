import { DeleteCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { auditEntriesOf, auditEntryOf, auditRefPartitions, isLegacyAuditEntry, LEGACY_AUDIT_INDEX_ATTRIBUTES } from '../lib/audit';
import { batchGetItems } from '../lib/batch-items';
import { forEachBounded } from '../lib/bounded';
import { db, tableName } from '../lib/db';
import { failedConditions, withWriteRetries } from '../lib/retry';
import { auditRefPartition, indexAttributes, indexPartition } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import type { Item } from './account-items';
import { ANONYMOUS, personalText, scrubPersonal, type PersonalText } from './personal-text';

/** The stand-in for an erased account's personal data in the audit entries it leaves behind. */
export { ANONYMOUS };

/** A source of the account's audit entries: a reference partition (the table) or a legacy index partition. */
export interface AuditSource {
  pk: string;
  index: 'table' | 'auditByEntity' | 'auditByActorId';
}

/**
 * Sources of the account's audit entries: by target (the account, its enrollment), by actor; each
 * from the references and from the legacy indexes (entries `npm run migrate` has not converted yet).
 */
export function auditSources(userId: string, enrollmentId: string | undefined): AuditSource[] {
  const entities = [['user', userId], ...(enrollmentId ? [['enrollment', enrollmentId]] : [])];
  return [
    ...entities.flatMap(([type, id]): AuditSource[] => [
      { pk: auditRefPartition.entity(type, id), index: 'table' },
      { pk: indexPartition.auditByEntity(type, id), index: 'auditByEntity' },
    ]),
    // entries where the account acted on someone else (e.g. an admin who is deleted later)
    { pk: auditRefPartition.actor(userId), index: 'table' },
    { pk: indexPartition.auditByActorId(userId), index: 'auditByActorId' },
  ];
}

/** An anonymised actor's email also leaves the legacy actor-email indexes (it is their partition key). */
const ACTOR_EMAIL_INDEX_ATTRIBUTES = [...indexAttributes('auditByActor'), ...indexAttributes('auditByActorDomain')];
const actorAnonymised = (entry: Item, user: Pick<UserRecord, 'id'>, personal: PersonalText) =>
  entry.actor_user_id === user.id || (typeof entry.actor_email === 'string' && personal.is(entry.actor_email));

/** The scrubbed values of one audit entry (idempotent: a scrubbed entry scrubs to itself). */
function scrubbedEntry(entry: Item, user: Pick<UserRecord, 'id'>, personal: PersonalText): Record<string, unknown> {
  // The account's own requests: its address and browser are personal data too.
  const own = entry.actor_user_id === user.id || (entry.actor_user_id == null && entry.entity_id === user.id);
  return {
    old_values: scrubPersonal(entry.old_values ?? null, personal),
    new_values: scrubPersonal(entry.new_values ?? null, personal),
    actor_email: actorAnonymised(entry, user, personal) ? ANONYMOUS : (entry.actor_email ?? null),
    ...(own ? { ip: null, user_agent: null } : {}),
  };
}

/**
 * Scrubs a page of audit items (entries, or references to them) by updating the fields that carry
 * personal data: audit entries are never rewritten whole (no role may put or batch-write over
 * `AUDIT#` items; only the hard delete's functions may update them,
 * docs/security.md#least-privilege-in-iam). An entry's references carry its actor's email: where
 * the entry's is anonymised, theirs is too, and its actor-domain references (a partition named
 * after the email) are deleted. The references come first: they are found from the entry's
 * fields, which the entry's own update scrubs, so a rerun after a partial run still finds them.
 * Each entry's updates go in one transaction with others' (up to 100 actions); when an item
 * vanished meanwhile (its TTL), that transaction's actions are made one by one, skipping it.
 */
export async function anonymiseEntries(items: Item[], user: Pick<UserRecord, 'id'>, personalValues: Set<string>) {
  const personal = personalText(personalValues);
  const entries = (await auditEntriesOf(items)) as Item[];
  const chunks: Array<Array<{ entry: Item; actions: Action[] }>> = [];
  for (const entry of entries) {
    const actions = anonymisingActions(entry, user, personal);
    const last = chunks.at(-1);
    if (last && last.flatMap((scrubbed) => scrubbed.actions).length + actions.length <= ANONYMISE_TRANSACTION)
      last.push({ entry, actions });
    else chunks.push([{ entry, actions }]);
  }
  await forEachBounded(chunks, 2, async (chunk) => {
    try {
      await withWriteRetries(() => db().send(new TransactWriteCommand({ TransactItems: chunk.flatMap(({ actions }) => actions) })));
    } catch (error) {
      if (!failedConditions(error).length) throw error;
      for (const { entry, actions } of chunk) await anonymiseOne(entry, actions, user, personal);
    }
  });
}

/**
 * Scrubs one entry action by action, skipping an item that is gone. A legacy entry is updated only
 * while it is legacy: one that `npm run migrate` converted since it was read is read again and
 * scrubbed with its references.
 */
async function anonymiseOne(entry: Item, actions: Action[], user: Pick<UserRecord, 'id'>, personal: PersonalText) {
  for (const action of actions) {
    try {
      await db().send(action.Update ? new UpdateCommand(action.Update) : new DeleteCommand(action.Delete));
    } catch (failure) {
      if ((failure as { name?: string }).name !== 'ConditionalCheckFailedException') throw failure;
      if (action.Update?.Key.pk !== entry.pk || !isLegacyAuditEntry(entry)) continue;
      const [now] = (await batchGetItems([{ pk: entry.pk, sk: entry.sk }], { consistentRead: true })) as Item[];
      if (now && !isLegacyAuditEntry(now)) await anonymiseOne(now, anonymisingActions(now, user, personal), user, personal);
    }
  }
}

/** Actions per transaction (DynamoDB's limit); an entry's at most 5 always fit in one. */
const ANONYMISE_TRANSACTION = 100;

interface UpdateInput {
  TableName: string;
  Key: { pk: string; sk: string };
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}
type Action =
  { Update: UpdateInput; Delete?: undefined } | { Delete: { TableName: string; Key: { pk: string; sk: string } }; Update?: undefined };

/** The updates (and deletes) that scrub one entry: its references' first, the entry's last. */
function anonymisingActions(entry: Item, user: Pick<UserRecord, 'id'>, personal: PersonalText): Action[] {
  const anonymised = actorAnonymised(entry, user, personal);
  const original = auditEntryOf(entry);
  // the partitions named after the actor's email: those the entry has only with it
  const withoutEmail = new Set(auditRefPartitions({ ...original, actor_email: null }));
  const refs: Action[] =
    anonymised && !isLegacyAuditEntry(entry) && entry.actor_email !== ANONYMOUS
      ? auditRefPartitions(original).map((partition) => {
          const Key = { pk: partition, sk: entry.sk };
          return withoutEmail.has(partition)
            ? { Update: setting(Key, { actor_email: ANONYMOUS }) }
            : { Delete: { TableName: tableName(), Key } };
        })
      : [];
  const body = setting({ pk: entry.pk, sk: entry.sk }, scrubbedEntry(entry, user, personal));
  // a legacy entry converted meanwhile has references to scrub too (anonymiseOne)
  const legacy = LEGACY_AUDIT_INDEX_ATTRIBUTES.find((name) => name in entry);
  if (legacy) {
    body.ConditionExpression = 'attribute_exists(#legacy)';
    body.ExpressionAttributeNames['#legacy'] = legacy;
  }
  if (anonymised) body.UpdateExpression += ` REMOVE ${ACTOR_EMAIL_INDEX_ATTRIBUTES.join(', ')}`;
  return [...refs, { Update: body }];
}

/** An update of an existing item that sets these fields. */
function setting(Key: { pk: string; sk: string }, fields: Record<string, unknown>): UpdateInput {
  const names = Object.keys(fields);
  return {
    TableName: tableName(),
    Key,
    UpdateExpression: `SET ${names.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#f${index}`, name])),
    ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:v${index}`, fields[name]])),
  };
}
