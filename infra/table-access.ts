import { AUDIT_REF_KIND, auditRefPrefix, PK } from '../functions/lib/table';
import type { RouteGroup } from '../shared/routes';
import { combinedAccess, type ItemAction, type KeyPrefix, type TableAccessSpec } from './constructs/app-function';

/** The stack's Lambda functions: one per endpoint group, and the jobs. */
export type StackFunctionName =
  RouteGroup | 'reminders' | 'seed' | 'mailEvents' | 'reminderWorker' | 'purge' | 'erasure' | 'reconcile' | 'activityStream';

/**
 * What each Lambda function may do in the single table (docs/security.md#least-privilege-in-iam):
 * per partition-key prefix (PK in functions/lib/table.ts, the constants the keys are built
 * from), the item actions its code makes, and the indexes it queries. The local IAM twin holds
 * every test run to these (infra/local/iam): a call outside them fails with AccessDenied as in
 * AWS, and a grant no call used fails the run, so they stay exactly what the code needs.
 */

/**
 * The steps of a hard delete after its first transaction (functions/admin/purge-job.ts
 * continuePurge): the account's partition page by page with the lookup items it links
 * (passkey ids, the public certificate), its activity days and their counts, the anonymisation of
 * its audit entries (found through their references and the legacy by-entity and by-actor
 * indexes), an administrator's traces in the program's items (their partition by Query), the
 * login back-off, the profile last, and the job's checkpoint. Run by whichever function the purge is in: the
 * admin's request or the purge worker (the erasure job only starts and queues purges).
 */
const PURGE_STEPS: TableAccessSpec = {
  items: {
    [PK.user]: ['GetItem', 'Query', 'DeleteItem', 'BatchWriteItem'],
    [PK.passkeyId]: ['BatchWriteItem'],
    [PK.cert]: ['BatchWriteItem'],
    [PK.activity]: ['BatchGetItem', 'DeleteItem'],
    [PK.stats]: ['UpdateItem'],
    [PK.rate]: ['BatchWriteItem'],
    // the entries by key from their references, scrubbed; the references' actor email scrubbed, its domain's deleted
    [PK.audit]: ['BatchGetItem', 'UpdateItem'],
    [PK.auditRef]: ['Query', 'UpdateItem', 'DeleteItem'],
    [PK.purge]: ['GetItem', 'PutItem'],
    // an erased administrator's author references and names in the program's draft and versions
    [PK.program]: ['Query', 'UpdateItem'],
  },
  indexes: ['auditByEntity', 'auditByActorId'],
};

/** A hard delete's first transaction (startPurge): the account out of every list, count and index at once. */
const PURGE_START: TableAccessSpec = {
  items: {
    [PK.user]: ['GetItem', 'UpdateItem', 'DeleteItem'],
    [PK.purge]: ['PutItem'],
    [PK.email]: ['DeleteItem'],
    [PK.userSearch]: ['DeleteItem'],
    [PK.stats]: ['UpdateItem'],
    // the entry in the transaction, its references right after the commit (functions/lib/audit.ts auditPuts)
    [PK.audit]: ['PutItem'],
    [PK.auditRef]: ['PutItem'],
  },
};

/**
 * The references (AUDITREF#) a learner-facing function's own audit entries make
 * (functions/lib/audit.ts auditRefPartitions), and nothing more: the histories of the entity types
 * it writes entries for, the actor's and the actor domain's partitions, and the partitions of the
 * actions it writes, by their names' start (`auth.`). It cannot put a reference in an
 * administrator's action partitions (`admin.*`) or in another entity type's histories (program,
 * export, route), which the console's filters read. Entries themselves (AUDIT#<day>) stay
 * appendable by every function that audits: their partitions are days, shared by every writer.
 */
function ownAuditReferences(entityTypes: string[], actionStarts: string[], actor = true): Partial<Record<KeyPrefix, ItemAction[]>> {
  const prefixes: KeyPrefix[] = [
    ...entityTypes.map((type) => auditRefPrefix.entity(type)),
    ...actionStarts.map((start) => auditRefPrefix.action(start)),
    ...(actor ? [AUDIT_REF_KIND.actor, AUDIT_REF_KIND.domain] : []),
  ];
  return Object.fromEntries(prefixes.map((prefix) => [prefix, ['PutItem']]));
}

export const TABLE_ACCESS: Record<StackFunctionName, TableAccessSpec | undefined> = {
  // Sign-in, registration, verification, reset, sessions, the public certificate check and the
  // health check (DescribeTable).
  auth: {
    items: {
      [PK.user]: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
      [PK.email]: ['GetItem', 'PutItem'],
      [PK.userSearch]: ['PutItem', 'DeleteItem'],
      [PK.challenge]: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
      [PK.passkeyId]: ['DeleteItem'],
      [PK.reset]: ['GetItem', 'PutItem', 'DeleteItem'],
      [PK.rate]: ['GetItem', 'BatchGetItem', 'UpdateItem', 'DeleteItem'],
      [PK.stats]: ['UpdateItem'],
      // the public check; a restore makes the certificate verify again (functions/lib/certificate-hold.ts)
      [PK.cert]: ['GetItem', 'UpdateItem'],
      // an audit entry and its references, each put (functions/lib/audit.ts): both append-only;
      // sign-in, registration, reset and restore entries, and refused requests (rate_limit)
      [PK.audit]: ['PutItem'],
      ...ownAuditReferences(['user', 'rate_limit'], ['auth.', 'account.', 'security.']),
      // the published program version (the session's open module, functions/program/published-program.ts)
      [PK.program]: ['GetItem'],
      // a security notice that cannot go out now waits for the hourly job (functions/accounts/security-notices.ts)
      [PK.notice]: ['PutItem'],
    },
    describe: true,
  },
  // Passkey registration, management and sign-in (which moves the account's last-active day), and
  // ending sessions ("Confirm it's you" may be a passkey).
  passkeys: {
    items: {
      [PK.user]: ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
      [PK.passkeyId]: ['GetItem', 'PutItem', 'DeleteItem'],
      [PK.webauthn]: ['PutItem', 'DeleteItem'],
      [PK.rate]: ['GetItem', 'UpdateItem'],
      // passkey and session entries, a throttled passkey sign-in (rate_limit)
      [PK.audit]: ['PutItem'],
      ...ownAuditReferences(['user', 'rate_limit'], ['auth.', 'security.']),
      [PK.notice]: ['PutItem'],
    },
  },
  // The learner's program, settings, certificate, data export (their audit history, by entity)
  // and self-deletion.
  learner: {
    items: {
      [PK.user]: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
      [PK.rate]: ['UpdateItem'],
      [PK.stats]: ['UpdateItem'],
      // issued; withheld from the public check by the learner's own deletion
      [PK.cert]: ['PutItem', 'UpdateItem'],
      [PK.userSearch]: ['PutItem'],
      // the export's entries by key from their references
      [PK.audit]: ['PutItem', 'BatchGetItem'],
      // its entries' references (self-deletion, password change, certificate, reminders, refusals)
      ...ownAuditReferences(['user', 'rate_limit'], ['account.', 'auth.', 'learner.', 'notifications.', 'security.']),
      // the data export reads the account's own history: the accounts' entity partitions only
      // (AUDITREF#ENTITY#user#<id>), none of the console's (actors, actions, domains)
      [auditRefPrefix.entity('user')]: ['Query', 'PutItem'],
      [PK.program]: ['GetItem'],
      [PK.notice]: ['PutItem'],
    },
    indexes: ['auditByEntity'],
  },
  // The console (lists, search, metrics, audit log, account actions) and the hard delete's start
  // and steps.
  admin: combinedAccess(
    {
      items: {
        // ConditionCheckItem: an override, a revocation or a passkey removal holds the account's
        // status in its transaction, never writing to an account being erased (functions/lib/account-states.ts)
        [PK.user]: ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
        // removing a user's passkey: its lookup item goes in the same transaction
        [PK.passkeyId]: ['DeleteItem'],
        [PK.email]: ['PutItem', 'DeleteItem'],
        [PK.userSearch]: ['Query', 'PutItem', 'DeleteItem'],
        [PK.activity]: ['BatchGetItem', 'DeleteItem'],
        [PK.stats]: ['BatchGetItem', 'Query', 'UpdateItem'],
        [PK.reset]: ['PutItem'],
        [PK.cert]: ['UpdateItem'],
        [PK.purge]: ['GetItem'],
        // the per-account notice limit and the mail budget of the mails an admin action sends
        [PK.rate]: ['UpdateItem'],
        // the unfiltered audit log reads the day partitions (AUDIT#<day>[#<shard>]) by Query; a
        // filtered page reads its entries by key, from the references it found
        [PK.audit]: ['PutItem', 'Query', 'BatchGetItem'],
        // the audit filters read the reference partitions (entity, actor, action, actor domain)
        [PK.auditRef]: ['PutItem', 'Query'],
        // program authoring: the draft, the versions (listed by Query), publishing (functions/program/authoring)
        [PK.program]: ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
        // the security notice of an admin action that cannot go out now waits for the hourly job
        [PK.notice]: ['PutItem'],
      },
      indexes: [
        'usersByStatus',
        'usersUnverified',
        'usersByActivity',
        'week1Pending',
        // the hard-delete preview counts an account's entries written before the references
        'auditByEntity',
        'auditByActorId',
        // the users list of the learners stalled at a module (same physical index as auditByEntity)
        'stalledAt',
      ],
    },
    PURGE_START,
    PURGE_STEPS,
  ),
  purge: PURGE_STEPS,
  // The daily erasure: due accounts through their index, its checkpoint (JOB#erasure#<day>), and
  // the start of each one's hard delete (the purge workers run its steps).
  erasure: combinedAccess({ items: { [PK.job]: ['GetItem', 'UpdateItem'] }, indexes: ['erasureDue'] }, PURGE_START),
  // The daily reconciliation of the counters (functions/admin/counter-reconcile.ts): every account
  // through usersByStatus, its enrollment by key, the activity markers counted, the counters read
  // and corrected, its checkpoint and the previous run's record (JOB#reconcile…).
  reconcile: {
    items: {
      [PK.user]: ['BatchGetItem'],
      [PK.activity]: ['Query'],
      [PK.stats]: ['BatchGetItem', 'Query', 'UpdateItem'],
      [PK.job]: ['GetItem', 'PutItem', 'UpdateItem'],
    },
    indexes: ['usersByStatus'],
  },
  // One slice of the day's reminders: due enrollments through their index, the accounts, the
  // once-a-day claim (released when the send fails), index repairs, the slice's checkpoint.
  reminderWorker: {
    items: {
      [PK.user]: ['BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
      [PK.job]: ['GetItem', 'UpdateItem'],
      // the published program: the open module a reminder names
      [PK.program]: ['GetItem'],
    },
    indexes: ['remindersDue'],
  },
  // SES bounces and complaints: the account by its address, marked, audited.
  mailEvents: {
    items: {
      [PK.email]: ['GetItem'],
      [PK.user]: ['GetItem', 'UpdateItem'],
      [PK.audit]: ['PutItem'],
      // user.email_bounced / user.email_complained, written with no actor
      ...ownAuditReferences(['user'], ['user.email_'], false),
    },
  },
  // The deploy-time content seed: version 1 on an empty table, the old per-module copies removed.
  seed: { items: { [PK.program]: ['GetItem', 'Query', 'PutItem', 'BatchWriteItem'] } },
  // The activity aggregator (the table's stream): the day's activity markers (each only if new),
  // the day counters, the search items' last-active day (functions/lib/activity-aggregation.ts),
  // and paused reminders resumed: the account's pause state, its enrollment back into the index.
  activityStream: {
    items: {
      // the accounts of a batch's sign-ins, read before their entries are written (none for an erased one)
      [PK.user]: ['GetItem', 'BatchGetItem', 'UpdateItem'],
      [PK.activity]: ['PutItem'],
      [PK.stats]: ['UpdateItem'],
      [PK.userSearch]: ['UpdateItem'],
      // a sign-in's `auth.login` entry, from its session item, and its references; the references
      // an entry written inside a transaction is missing (read by key), from the entry read by key
      [PK.audit]: ['PutItem', 'BatchGetItem'],
      [PK.auditRef]: ['BatchGetItem', 'PutItem'],
    },
  },
  // The hourly schedule queues the slices of the hour's index partitions that hold learners: one
  // key of each partition read (functions/program/reminders.ts partitionsWithLearners). Then it
  // sends the deferred security notices (functions/accounts/deferred-notices.ts): their partition
  // read and each sent one deleted, the account read, the notice limit and mail budget counted.
  reminders: {
    items: {
      [PK.notice]: ['Query', 'DeleteItem'],
      [PK.user]: ['GetItem'],
      [PK.rate]: ['UpdateItem'],
    },
    indexes: ['remindersDue'],
  },
};
