import type { RouteGroup } from '../shared/routes';
import { combinedAccess, type TableAccessSpec } from './constructs/app-function';

/** The stack's Lambda functions: one per endpoint group, and the jobs. */
export type StackFunctionName =
  RouteGroup | 'reminders' | 'seed' | 'mailEvents' | 'reminderWorker' | 'purge' | 'erasure' | 'activityStream';

/**
 * What each Lambda function may do in the single table (docs/security.md#least-privilege-in-iam):
 * per partition-key prefix, the item actions its code makes, and the indexes it queries. The
 * local IAM twin holds every test run to these (infra/local/iam): a call outside them fails with
 * AccessDenied as in AWS, and a grant no call used fails the run, so they stay exactly what the
 * code needs.
 */

/**
 * The steps of a hard delete after its first transaction (functions/admin/purge-job.ts
 * continuePurge): the account's partition page by page with the lookup items it links
 * (passkey ids, the public certificate), its activity days and their counts, the anonymisation of
 * its audit entries (found through the by-entity and by-actor indexes), the login back-off, the
 * profile last, and the job's checkpoint. Run by whichever function the purge is in: the
 * admin's request, the purge worker, or the erasure job.
 */
const PURGE_STEPS: TableAccessSpec = {
  items: {
    'USER#': ['GetItem', 'Query', 'DeleteItem', 'BatchWriteItem'],
    'PASSKEYID#': ['BatchWriteItem'],
    'CERT#': ['BatchWriteItem'],
    'ACTIVITY#': ['BatchGetItem', 'DeleteItem'],
    'STATS#': ['UpdateItem'],
    'RATE#': ['BatchWriteItem'],
    'AUDIT#': ['UpdateItem'],
    'PURGE#': ['GetItem', 'PutItem'],
  },
  indexes: ['auditByEntity', 'auditByActorId'],
};

/** A hard delete's first transaction (startPurge): the account out of every list, count and index at once. */
const PURGE_START: TableAccessSpec = {
  items: {
    'USER#': ['GetItem', 'UpdateItem', 'DeleteItem'],
    'PURGE#': ['PutItem'],
    'EMAIL#': ['DeleteItem'],
    'USERSEARCH#': ['DeleteItem'],
    'STATS#': ['UpdateItem'],
    'AUDIT#': ['PutItem'],
  },
};

export const TABLE_ACCESS: Record<StackFunctionName, TableAccessSpec | undefined> = {
  // Sign-in, registration, verification, reset, sessions, the public certificate check and the
  // health check (DescribeTable).
  auth: {
    items: {
      'USER#': ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
      'EMAIL#': ['GetItem', 'PutItem'],
      'USERSEARCH#': ['PutItem', 'DeleteItem'],
      'CHALLENGE#': ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
      'PASSKEYID#': ['DeleteItem'],
      'RESET#': ['GetItem', 'PutItem', 'DeleteItem'],
      'RATE#': ['GetItem', 'UpdateItem', 'DeleteItem'],
      'STATS#': ['UpdateItem'],
      // the public check; a restore makes the certificate verify again (functions/lib/certificate-hold.ts)
      'CERT#': ['GetItem', 'UpdateItem'],
      'AUDIT#': ['PutItem'],
      // the published program version (the session's open module, functions/program/published-program.ts)
      'PROGRAM#': ['GetItem'],
    },
    describe: true,
  },
  // Passkey registration, management and sign-in (which moves the account's last-active day).
  passkeys: {
    items: {
      'USER#': ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
      'PASSKEYID#': ['GetItem', 'PutItem', 'DeleteItem'],
      'WEBAUTHN#': ['PutItem', 'DeleteItem'],
      'RATE#': ['GetItem', 'UpdateItem'],
      'AUDIT#': ['PutItem'],
    },
  },
  // The learner's program, settings, certificate, data export (their audit history, by entity)
  // and self-deletion.
  learner: {
    items: {
      'USER#': ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
      'RATE#': ['UpdateItem'],
      'STATS#': ['UpdateItem'],
      // issued; withheld from the public check by the learner's own deletion
      'CERT#': ['PutItem', 'UpdateItem'],
      'USERSEARCH#': ['PutItem'],
      'AUDIT#': ['PutItem'],
      'PROGRAM#': ['GetItem'],
    },
    indexes: ['auditByEntity'],
  },
  // The console (lists, search, metrics, audit log, account actions) and the hard delete's start
  // and steps.
  admin: combinedAccess(
    {
      items: {
        'USER#': ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
        // removing a user's passkey: its lookup item goes in the same transaction
        'PASSKEYID#': ['DeleteItem'],
        'EMAIL#': ['PutItem', 'DeleteItem'],
        'USERSEARCH#': ['Query', 'PutItem', 'DeleteItem'],
        'ACTIVITY#': ['BatchGetItem', 'DeleteItem'],
        'STATS#': ['BatchGetItem', 'Query', 'UpdateItem'],
        'RESET#': ['PutItem'],
        'CERT#': ['UpdateItem'],
        'PURGE#': ['GetItem'],
        // the per-account notice limit and the hourly mail budget of the mails an admin action sends
        'RATE#': ['UpdateItem'],
        'AUDIT#': ['PutItem'],
        // program authoring: the draft, the versions (listed by Query), publishing (functions/program/authoring)
        'PROGRAM#': ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
      },
      indexes: [
        'usersByStatus',
        'usersUnverified',
        'usersByActivity',
        'week1Pending',
        'auditByTime',
        'auditByAction',
        'auditByEntityType',
        'auditByActor',
        'auditByActorDomain',
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
  // the hard delete of each.
  erasure: combinedAccess(
    { items: { 'JOB#': ['GetItem', 'UpdateItem'], 'USER#': ['Query'] }, indexes: ['erasureDue'] },
    PURGE_START,
    PURGE_STEPS,
  ),
  // One slice of the day's reminders: due enrollments through their index, the accounts, the
  // once-a-day claim (released when the send fails), index repairs, the slice's checkpoint.
  reminderWorker: {
    items: {
      'USER#': ['BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
      'JOB#': ['GetItem', 'UpdateItem'],
      // the published program: the open module a reminder names
      'PROGRAM#': ['GetItem'],
    },
    indexes: ['remindersDue'],
  },
  // SES bounces and complaints: the account by its address, marked, audited.
  mailEvents: {
    items: {
      'EMAIL#': ['GetItem'],
      'USER#': ['GetItem', 'UpdateItem'],
      'AUDIT#': ['PutItem'],
    },
  },
  // The deploy-time content seed: version 1 on an empty table, the old per-module copies removed.
  seed: { items: { 'PROGRAM#': ['GetItem', 'Query', 'PutItem', 'BatchWriteItem'] } },
  // The activity aggregator (the table's stream): the day's activity markers (each only if new),
  // the day counters, the search items' last-active day (functions/lib/activity-aggregation.ts).
  activityStream: {
    items: {
      'ACTIVITY#': ['PutItem'],
      'STATS#': ['UpdateItem'],
      'USERSEARCH#': ['UpdateItem'],
    },
  },
  // The daily schedule only queues the day's reminder slices: no table.
  reminders: undefined,
};
