import { nowMs } from './clock';
/**
 * The single-table layout: key attribute names, GSI definitions and key builders.
 * The CDK table (infra/) and the local table setup are built from these same definitions.
 *
 * Item kinds (pk / sk):
 *   USER#<id>            / PROFILE              the account (usersByStatus; usersUnverified while
 *                                               unverified; usersByActivity once active: list fields only)
 *   EMAIL#<email lower>  / EMAIL                uniqueness guard for an email, holds user_id
 *   USER#<id>            / SESSION#<sid>        a signed-in session (TTL = absolute expiry)
 *   USER#<id>            / CODE#<purpose>       a hashed 6-digit code (verify email, 2FA) (TTL)
 *   CHALLENGE#<id>       / CHALLENGE            a login 2FA challenge (TTL)
 *   RESET#<token hash>   / RESET                a password reset token (TTL)
 *   RATE#<scope>#<key>   / WINDOW#<start>       a rate-limit window (TTL)
 *   RATE#login_backoff#<email lower>[#<source>] / STATE   consecutive failed logins of one account
 *                                               from one source (device:<id> or ip:<block>) and
 *                                               the next allowed try (TTL; docs/security.md#sign-in-a-stranger-cannot-lock-the-owner-out-guessing-stays-bounded)
 *   AUDIT#<yyyy-mm-dd>[#<shard>] / <iso time>#<id>  an audit entry, by day, in one of AUDIT_SHARDS
 *                                               partitions of its day (shard 0 has no suffix); in
 *                                               no index (entries written before the reference
 *                                               items carry the audit index keys until
 *                                               `npm run migrate` converts them, functions/lib/audit-migration.ts)
 *   AUDITREF#<access pattern>… / <iso time>#<id>  a reference to an audit entry: one per access
 *                                               pattern the audit screens read (auditRef below),
 *                                               with the fields their filters read (functions/lib/audit.ts)
 *   ACTIVITY#<yyyy-mm-dd>/ USER#<id>            a learner was active that day (login or task)
 *   STATS#GLOBAL#<shard> / COUNTERS             write-sharded aggregate counters (functions/lib/stats.ts)
 *   STATS#LASTACTIVE     / DAY#<yyyy-mm-dd>      how many accounts were last active that day
 *   STATS#DAILYACTIVE    / DAY#<yyyy-mm-dd>      how many distinct learners were active that day
 *   PROGRAM#<program>    / META                 the program: published_version (what learners see),
 *                                               title, counts
 *   PROGRAM#<program>    / VERSION#<nnnnnn>     one published version: the whole content, change
 *                                               note, who published it (kept for good)
 *   PROGRAM#<program>    / DRAFT                the administrators' draft: content, revision (the
 *                                               version check), based_on_version
 *   USER#<id>            / ENROLLMENT#<program> an enrollment: status, percent_complete, counts,
 *                                               open_module_id, enrolled_at, week1_completed_at,
 *                                               version; remindersDue REMIND#daily#<hour>#<shard>
 *                                               or REMIND#weekly#<weekday>#<hour>#<shard> / <user id>
 *                                               only while reminders are due (sparse; the UTC
 *                                               weekday and hour of the local morning)
 *   USER#<id>            / PROGRESS#<program>#<module id>   one module's status (open, completed,
 *                                               locked), started_at, completed_at
 *   USER#<id>            / TASK#<program>#<module id>#<task id>  one task's done flag and answer
 *   USER#<id>            / REMINDER#<yyyy-mm-dd> a reminder was sent that day, the learner's local day (TTL)
 *   STATS#ENROLLDAY      / DAY#<yyyy-mm-dd>      enrollments of that enroll day and how many of
 *                                               them completed week 1 within 7 days (drop-off)
 *   USER#<id>            / CERTIFICATE#<program> the learner's certificate of completion (code, names,
 *                                               completed_at, revoked_at); CERT#<code> / CERTIFICATE
 *                                               is its public copy for verification by code
 *   USERSEARCH#<c>       / <value>#<id>#<field>  admin prefix search: one item per lower-cased
 *                                               email, first and last name of an account
 *                                               (<c> = the value's first character), with the
 *                                               account's status, verified and `shadowed`
 *                                               (users.ts searchItems) for the search's filter
 *   USER#<id>            / PASSKEY#<hash>       a passkey; PASSKEYID#<hash> / PASSKEY finds its account;
 *                                               WEBAUTHN#<id> / CHALLENGE a WebAuthn challenge (TTL)
 *   USER#<id>            / BROWSER#<hash>       a browser the account signed in from (TTL)
 *   STATS#<DAILYACTIVE|LASTACTIVE|ENROLLDAY> / DAY#<yyyy-mm-dd>#<shard>  the same day counters,
 *                                               write-sharded (a day's value = the sum of its items)
 *   PURGE#<user id>      / JOB                  a hard delete in progress: its step and checkpoint
 *   JOB#reminders#<day>  / PART#<partition>     the reminder fan-out's checkpoint per index partition
 *   JOB#erasure#<day>    / STATE                the daily erasure job's cursor and counts (TTL)
 *   JOB#reconcile#<day>  / STATE                the day's reconciliation of the counters: its walk's
 *                                               checkpoint, then the drift it saw (TTL)
 *   JOB#reconcile        / LAST                 the drift the last finished reconciliation saw
 *   JOB#rebuild#<from>#<to> / STATE             a rebuild of derived data over those days: its checkpoint (TTL)
 *   MIGRATION#<name>     / APPLIED              a data migration of `npm run migrate` ran to the end (infra/ops/migrations.ts)
 *   NOTICE#deferred      / <iso time>#<id>      a security notice that could not be sent yet, oldest first:
 *                                               the hourly job sends it (functions/accounts/deferred-notices.ts; TTL)
 *   USER#<id> / PROFILE also carries erasureDue ERASURE / <deleted_at>#<id> while soft-deleted
 *   ENROLLMENT items also carry week1Pending WEEK1#PENDING / <enrolled_at>#<user id> until week 1
 *   is completed on time (the week-1 drop-off cohort, functions/lib/stats.ts)
 * Indexes: `INDEX` below, one entry per access pattern (the names above), keys set only through
 * `indexKeys`, read through `indexPartition` / `indexQuery` / `indexPartitionOf`, removed through
 * `indexAttributes`: no other file spells an index or index attribute name (test/unit/index-names.test.ts).
 * docs/data-model.md has every item and access pattern with its cost.
 */
export const KEY = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttl: 'expires_at',
} as const;

/** What an index copies from its items: every attribute, or only the named ones (plus the keys). */
export type Projection = 'ALL' | readonly string[];

export interface GsiDef {
  indexName: string;
  partitionKey: string;
  sortKey: string;
  projection: Projection;
}

/**
 * The fields a user-list row shows (and the list's filters read): what the user-list indexes
 * project. Never a password hash, a code or a session: an index copy is one more place a secret
 * would live, and a write that changes only unprojected fields (a task save) writes no index.
 */
export const USER_LIST_FIELDS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'status',
  'is_locked',
  'created_at',
  'last_login_at',
  'role',
  'verified',
  'last_active_day',
] as const;

/**
 * Every GSI, named by the access pattern it serves. Sparse: an item is in an index only while it
 * carries that index's key attributes, set through `indexKeys` below (never typed out elsewhere).
 * The first four keep their historical physical names (gsi1…gsi4); newer ones are named after
 * the pattern. To add an index, add an entry here and a builder to `indexKeys`: the CDK table,
 * the local table setup and the stack test all read this map.
 */
export const INDEX = {
  /** audit entries of one entity, newest first: AUDIT#ENTITY#<type>#<id> / <created_at>#<audit id> */
  auditByEntity: { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
  /** audit entries an account made, by actor user id (hard delete scrubs them): AUDIT#ACTOR#<user id> / <created_at>#<audit id> */
  auditByActorId: { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'ALL' },
  /**
   * enrollments whose reminder is due, sparse, by the UTC hour of the learner's local morning:
   * REMIND#daily#<hour>#<shard> or REMIND#weekly#<weekday>#<hour>#<shard> / <user id>
   * (functions/program/reminder-index.ts)
   */
  remindersDue: { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: 'ALL' },
  /** enrollments whose week 1 is not completed on time: WEEK1#PENDING / <enrolled_at>#<user id> (functions/lib/stats.ts) */
  week1Pending: { indexName: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk', projection: 'ALL' },
  /**
   * learners stalled at a module (overloads gsi1: no audit entry key starts with STALLED#): the
   * enrollment's first in-progress module of the funnel, STALLED#<module id> / <user id>
   * (functions/lib/funnel.ts). One partition per module; the random user ids let DynamoDB split it.
   */
  stalledAt: { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
  /** accounts by status, newest first: <status> / <created_at>#<id> */
  usersByStatus: { indexName: 'usersByStatus', partitionKey: 'usersByStatusPk', sortKey: 'usersByStatusSk', projection: USER_LIST_FIELDS },
  /** unverified accounts by status, newest first (sparse): <status> / <created_at>#<id> */
  usersUnverified: {
    indexName: 'usersUnverified',
    partitionKey: 'usersUnverifiedPk',
    sortKey: 'usersUnverifiedSk',
    projection: USER_LIST_FIELDS,
  },
  /** accounts by status and last active day, most recent first (sparse): <status> / <last active day>#<id> */
  usersByActivity: {
    indexName: 'usersByActivity',
    partitionKey: 'usersByActivityPk',
    sortKey: 'usersByActivitySk',
    projection: USER_LIST_FIELDS,
  },
  /** every audit entry, newest first (the unfiltered log): AUDIT / <created_at>#<audit id> */
  auditByTime: { indexName: 'auditByTime', partitionKey: 'auditByTimePk', sortKey: 'auditByTimeSk', projection: 'ALL' },
  /** audit entries by action, newest first: <action> / <created_at>#<audit id> */
  auditByAction: { indexName: 'auditByAction', partitionKey: 'auditByActionPk', sortKey: 'auditByActionSk', projection: 'ALL' },
  /** audit entries by entity type, newest first: <entity type> / <created_at>#<audit id> */
  auditByEntityType: {
    indexName: 'auditByEntityType',
    partitionKey: 'auditByEntityTypePk',
    sortKey: 'auditByEntityTypeSk',
    projection: 'ALL',
  },
  /** audit entries by actor email (lower-cased), newest first: <email> / <created_at>#<audit id> */
  auditByActor: { indexName: 'auditByActor', partitionKey: 'auditByActorPk', sortKey: 'auditByActorSk', projection: 'ALL' },
  /** audit entries by actor email domain, newest first: @<domain> / <created_at>#<audit id> */
  auditByActorDomain: {
    indexName: 'auditByActorDomain',
    partitionKey: 'auditByActorDomainPk',
    sortKey: 'auditByActorDomainSk',
    projection: 'ALL',
  },
  /**
   * soft-deleted accounts by deletion time, oldest first (sparse; the daily erasure job,
   * functions/admin/erasure.ts): ERASURE / <deleted_at>#<id>. One partition: only soft-deletes
   * and restores write it (rare), and "deleted before the cutoff" is one key range of it.
   */
  erasureDue: {
    indexName: 'erasureDue',
    partitionKey: 'erasureDuePk',
    sortKey: 'erasureDueSk',
    projection: ['id', 'deleted_at', 'status'],
  },
} as const satisfies Record<string, GsiDef>;

export type IndexName = keyof typeof INDEX;

/** The physical GSIs (an index may serve more than one access pattern). */
export const GSIS: readonly GsiDef[] = [...new Map(Object.values(INDEX).map((gsi) => [gsi.indexName, gsi as GsiDef])).values()];

const entry = (name: IndexName, pk: string, sk: string): Record<string, string> => ({
  [INDEX[name].partitionKey]: pk,
  [INDEX[name].sortKey]: sk,
});

/** The partition value of each index (what a Query asks for). */
export const indexPartition = {
  auditByEntity: (entityType: string, entityId: string) => `AUDIT#ENTITY#${entityType}#${entityId}`,
  auditByActorId: (userId: string) => `AUDIT#ACTOR#${userId}`,
  week1Pending: () => 'WEEK1#PENDING',
  /**
   * daily learners: REMIND#daily#<UTC send hour>#<shard>; weekly learners:
   * REMIND#weekly#<UTC weekday>#<UTC send hour>#<shard> (the hour two digits)
   */
  remindersDue: (shard: number, hour: number, weekday?: number) => {
    const hh = String(hour).padStart(2, '0');
    return weekday === undefined ? `REMIND#daily#${hh}#${shard}` : `REMIND#weekly#${weekday}#${hh}#${shard}`;
  },
  usersByStatus: (status: string) => status,
  usersUnverified: (status: string) => status,
  usersByActivity: (status: string) => status,
  auditByTime: () => 'AUDIT',
  auditByAction: (action: string) => action,
  auditByEntityType: (entityType: string) => entityType,
  auditByActor: (email: string) => email.trim().toLowerCase(),
  auditByActorDomain: (domain: string) => `@${domain.trim().toLowerCase().replace(/^@/, '')}`,
  erasureDue: () => 'ERASURE',
  stalledAt: (moduleId: string) => `STALLED#${moduleId}`,
};

/**
 * The reminder index partitions from before they carried the UTC send hour: REMIND#daily#<shard>
 * and REMIND#weekly#<UTC weekday>#<shard> (functions/program/reminder-index-migration.ts moves
 * their entries; the hourly runs never read them).
 */
export const legacyRemindersDuePartition = (shard: number, weekday?: number) =>
  weekday === undefined ? `REMIND#daily#${shard}` : `REMIND#weekly#${weekday}#${shard}`;

/** Typed key builders: the attributes that put an item into an index. */
export const indexKeys = {
  auditByEntity: (entityType: string, entityId: string, sortKey: string) =>
    entry('auditByEntity', indexPartition.auditByEntity(entityType, entityId), sortKey),
  auditByActorId: (userId: string, sortKey: string) => entry('auditByActorId', indexPartition.auditByActorId(userId), sortKey),
  week1Pending: (userId: string, enrolledAt: string) => entry('week1Pending', indexPartition.week1Pending(), `${enrolledAt}#${userId}`),
  remindersDue: (partition: string, userId: string) => entry('remindersDue', partition, userId),
  usersByStatus: (user: { id: string; created_at: string; status: string }) =>
    entry('usersByStatus', user.status, `${user.created_at}#${user.id}`),
  usersUnverified: (user: { id: string; created_at: string; status: string }) =>
    entry('usersUnverified', user.status, `${user.created_at}#${user.id}`),
  usersByActivity: (user: { id: string; status: string }, lastActiveDay: string) =>
    entry('usersByActivity', user.status, `${lastActiveDay}#${user.id}`),
  auditByTime: (sortKey: string) => entry('auditByTime', indexPartition.auditByTime(), sortKey),
  auditByAction: (action: string, sortKey: string) => entry('auditByAction', indexPartition.auditByAction(action), sortKey),
  auditByEntityType: (entityType: string, sortKey: string) =>
    entry('auditByEntityType', indexPartition.auditByEntityType(entityType), sortKey),
  auditByActor: (email: string, sortKey: string) => entry('auditByActor', indexPartition.auditByActor(email), sortKey),
  auditByActorDomain: (domain: string, sortKey: string) => entry('auditByActorDomain', indexPartition.auditByActorDomain(domain), sortKey),
  erasureDue: (userId: string, deletedAt: string) => entry('erasureDue', indexPartition.erasureDue(), `${deletedAt}#${userId}`),
  stalledAt: (moduleId: string, userId: string) => entry('stalledAt', indexPartition.stalledAt(moduleId), userId),
};

/** The key attribute names of an index (for REMOVE expressions when an item leaves it). */
export const indexAttributes = (name: IndexName): [string, string] => [INDEX[name].partitionKey, INDEX[name].sortKey];

/** The partition an item is in on an index (undefined while it is not in that sparse index). */
export const indexPartitionOf = (name: IndexName, item: object): string | undefined => {
  const value = (item as Record<string, unknown>)[INDEX[name].partitionKey];
  return typeof value === 'string' ? value : undefined;
};

/**
 * The index part of a Query input: one partition, optionally a sort-key prefix. Attribute names
 * go through ExpressionAttributeNames (#ipk, #isk), values through :ipk and :isk.
 */
export interface IndexQuery {
  IndexName: string;
  KeyConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, string>;
}

export function indexQuery(name: IndexName, partition: string, sortPrefix?: string): IndexQuery {
  const { indexName, partitionKey, sortKey } = INDEX[name];
  if (sortPrefix === undefined) {
    return {
      IndexName: indexName,
      KeyConditionExpression: '#ipk = :ipk',
      ExpressionAttributeNames: { '#ipk': partitionKey },
      ExpressionAttributeValues: { ':ipk': partition },
    };
  }
  return {
    IndexName: indexName,
    KeyConditionExpression: '#ipk = :ipk AND begins_with(#isk, :isk)',
    ExpressionAttributeNames: { '#ipk': partitionKey, '#isk': sortKey },
    ExpressionAttributeValues: { ':ipk': partition, ':isk': sortPrefix },
  };
}

/**
 * Every partition-key prefix of the table, by item kind. IAM grants name what a function may touch
 * by these (`dynamodb:LeadingKeys`, infra/table-access.ts through bindTableAccess in
 * infra/constructs/app-function.ts); every key below starts with one of them
 * (test/unit/key-prefixes.test.ts). No other file spells a key prefix (test/unit/index-names.test.ts).
 */
export const PK = {
  user: 'USER#',
  email: 'EMAIL#',
  userSearch: 'USERSEARCH#',
  challenge: 'CHALLENGE#',
  reset: 'RESET#',
  rate: 'RATE#',
  activity: 'ACTIVITY#',
  audit: 'AUDIT#',
  auditRef: 'AUDITREF#',
  stats: 'STATS#',
  program: 'PROGRAM#',
  cert: 'CERT#',
  passkeyId: 'PASSKEYID#',
  webauthn: 'WEBAUTHN#',
  purge: 'PURGE#',
  job: 'JOB#',
  migration: 'MIGRATION#',
  notice: 'NOTICE#',
} as const;
/**
 * The mark of an audit entry written inside a transaction, `references: 'stream'`: the table's
 * stream writes its references after the commit (functions/lib/audit-stream-refs.ts, and the
 * stream's filter in infra/constructs/activity-stream.ts).
 */
export const STREAMED_REFERENCES = { attribute: 'references', value: 'stream' } as const;
export type PartitionPrefix = (typeof PK)[keyof typeof PK];
export const PARTITION_PREFIXES: readonly PartitionPrefix[] = Object.values(PK);

/** Sort-key prefixes, by item kind: what a Query's `begins_with` or a filter over a partition's items asks for. */
export const SK = {
  session: 'SESSION#',
  code: 'CODE#',
  enrollment: 'ENROLLMENT#',
  progress: 'PROGRESS#',
  task: 'TASK#',
  reminder: 'REMINDER#',
  certificate: 'CERTIFICATE#',
  passkey: 'PASSKEY#',
  browser: 'BROWSER#',
  window: 'WINDOW#',
  day: 'DAY#',
  version: 'VERSION#',
  part: 'PART#',
  /** the per-module copies of a program older content seeds wrote (PROGRAM#<program> / MODULE#<id>); the seed removes them */
  legacyModule: 'MODULE#',
} as const;

/** The sort key of an account's profile item (USER#<id> / PROFILE). */
export const PROFILE_SK = 'PROFILE';

/** What follows a known prefix in a key (`keyAfter(PK.user, pk)` is the user id). */
export const keyAfter = (prefix: string, key: string) => key.slice(prefix.length);

/** Sort-key prefixes of Queries over one partition's items of one program or module. */
export const sortPrefix = {
  /** an account's module progress in a program */
  progress: (programId: string) => `${SK.progress}${programId}#`,
  /** an account's task answers in one module */
  tasks: (programId: string, moduleId: string) => `${SK.task}${programId}#${moduleId}#`,
};

/** The partition of a day counter (STATS#DAILYACTIVE, STATS#LASTACTIVE, STATS#ENROLLDAY). */
export const dayCounterPartition = (counter: 'DAILYACTIVE' | 'LASTACTIVE' | 'ENROLLDAY') => `${PK.stats}${counter}`;

/**
 * Audit partitions that every entry, or a large share of them, is appended to are split in
 * AUDIT_SHARDS (the day's entries, each actor domain's, the routine sign-in actions'): each takes
 * at most a partition's write rate (1,000 WRU/s), so the platform's audited events can reach
 * AUDIT_SHARDS times that. An entry's shard is a hash of its id, so a reference finds its entry's
 * key without storing it. Readers merge the shards of a bucket (functions/admin/audit-reads.ts).
 * The count may grow, never shrink (readers would miss the entries of the shards dropped).
 */
export const AUDIT_SHARDS = 4;
export const auditShardOf = (id: string) => {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return hash % AUDIT_SHARDS;
};
/**
 * The security notices waiting to be sent: one partition (they are few and written only while
 * mail cannot go out; a partition takes 1,000 writes a second).
 */
export const deferredNoticePartition = `${PK.notice}deferred`;
/** The learners active on a day: the partition of their ACTIVITY markers. */
export const activityPartition = (day: string) => `${PK.activity}${day}`;

/** A day's audit partition of one shard (shard 0: AUDIT#<day>, where every entry went before the shards). */
export const auditDayPartition = (day: string, shard: number) => `${PK.audit}${day}${shard ? `#${shard}` : ''}`;

/**
 * The reference partitions' prefixes, by kind: what the IAM grants of the functions that write or
 * read references name (infra/table-access.ts), narrower than `AUDITREF#` where a function only
 * needs some (docs/security.md#least-privilege-in-iam).
 */
export const AUDIT_REF_KIND = {
  entity: `${PK.auditRef}ENTITY#`,
  actor: `${PK.auditRef}ACTOR#`,
  action: `${PK.auditRef}ACTION#`,
  domain: `${PK.auditRef}DOMAIN#`,
} as const;
export const auditRefPrefix = {
  /** the histories of one entity type's entities */
  entity: (entityType: string) => `${AUDIT_REF_KIND.entity}${entityType}#` as const,
  /** the partitions of the actions whose names start with `start` (`auth.`: every auth.* action) */
  action: (start: string) => `${AUDIT_REF_KIND.action}${start}` as const,
};

/**
 * The partitions of the references to audit entries, by access pattern. One account's or
 * entity's references form one partition (their history has no hot end); an action's and an
 * actor domain's carry the month of the entry and a shard: a month bucket keeps a partition's
 * size bounded, the shards spread the writes of a busy action or domain.
 */
export const auditRefPartition = {
  /** one entity's history (the user drawer, the entity filter, a hard delete's scrub and the data export) */
  entity: (entityType: string, entityId: string) => `${auditRefPrefix.entity(entityType)}${entityId}`,
  /** what one account did (the actor filter, a hard delete's scrub) */
  actor: (userId: string) => `${AUDIT_REF_KIND.actor}${userId}`,
  /** one action's entries of a month (yyyy-mm), one shard of them (the action and entity-type filters) */
  action: (action: string, month: string, shard: number) => `${AUDIT_REF_KIND.action}${action}#${month}#${shard}`,
  /** one actor domain's entries of a month, one shard (the actor filter given as @domain or a former address) */
  domain: (domain: string, month: string, shard: number) =>
    `${AUDIT_REF_KIND.domain}${domain.trim().toLowerCase().replace(/^@/, '')}#${month}#${shard}`,
};

export const keys = {
  user: (userId: string) => ({ pk: `${PK.user}${userId}`, sk: PROFILE_SK }),
  email: (email: string) => ({ pk: `${PK.email}${email.trim().toLowerCase()}`, sk: 'EMAIL' }),
  session: (userId: string, sessionId: string) => ({ pk: `${PK.user}${userId}`, sk: `${SK.session}${sessionId}` }),
  code: (userId: string, purpose: string) => ({ pk: `${PK.user}${userId}`, sk: `${SK.code}${purpose}` }),
  challenge: (challengeId: string) => ({ pk: `${PK.challenge}${challengeId}`, sk: 'CHALLENGE' }),
  resetToken: (tokenHash: string) => ({ pk: `${PK.reset}${tokenHash}`, sk: 'RESET' }),
  rateWindow: (scope: string, key: string, windowStart: number) => ({
    pk: `${PK.rate}${scope}#${key}`,
    sk: `${SK.window}${windowStart}`,
  }),
  loginBackoff: (email: string, source?: string) => ({
    pk: `${PK.rate}login_backoff#${email.trim().toLowerCase()}${source ? `#${source}` : ''}`,
    sk: 'STATE',
  }),
  activity: (day: string, userId: string) => ({ pk: activityPartition(day), sk: `${PK.user}${userId}` }),
  /** An audit entry: its day's partition, the shard its id gives (shard 0 is the day's partition before sharding). */
  audit: (createdAt: string, id: string) => ({ pk: auditDayPartition(createdAt.slice(0, 10), auditShardOf(id)), sk: `${createdAt}#${id}` }),
  statsShard: (shard: number) => ({ pk: `${PK.stats}GLOBAL#${shard}`, sk: 'COUNTERS' }),
  lastActiveDay: (day: string) => ({ pk: dayCounterPartition('LASTACTIVE'), sk: `${SK.day}${day}` }),
  dailyActive: (day: string) => ({ pk: dayCounterPartition('DAILYACTIVE'), sk: `${SK.day}${day}` }),
  programMeta: (programId: string) => ({ pk: `${PK.program}${programId}`, sk: 'META' }),
  /** Zero-padded so versions sort in order within the program's partition. */
  programVersion: (programId: string, version: number) => ({
    pk: `${PK.program}${programId}`,
    sk: `${SK.version}${String(version).padStart(6, '0')}`,
  }),
  programDraft: (programId: string) => ({ pk: `${PK.program}${programId}`, sk: 'DRAFT' }),
  enrollment: (userId: string, programId: string) => ({ pk: `${PK.user}${userId}`, sk: `${SK.enrollment}${programId}` }),
  moduleProgress: (userId: string, programId: string, moduleId: string) => ({
    pk: `${PK.user}${userId}`,
    sk: `${SK.progress}${programId}#${moduleId}`,
  }),
  taskAnswer: (userId: string, programId: string, moduleId: string, taskId: string) => ({
    pk: `${PK.user}${userId}`,
    sk: `${SK.task}${programId}#${moduleId}#${taskId}`,
  }),
  reminderSent: (userId: string, day: string) => ({ pk: `${PK.user}${userId}`, sk: `${SK.reminder}${day}` }),
  enrollDay: (day: string) => ({ pk: dayCounterPartition('ENROLLDAY'), sk: `${SK.day}${day}` }),
  /** A learner's certificate of completion for a program (holds its public verification code). */
  userCertificate: (userId: string, programId: string) => ({ pk: `${PK.user}${userId}`, sk: `${SK.certificate}${programId}` }),
  /** The public copy of a certificate, looked up by its verification code (no session needed). */
  certificate: (code: string) => ({ pk: `${PK.cert}${code}`, sk: 'CERTIFICATE' }),
  userSearch: (value: string, userId: string, field: string) => ({
    pk: `${PK.userSearch}${value.slice(0, 1)}`,
    sk: `${value}#${userId}#${field}`,
  }),
  // Account security center (docs/security.md#account-security-center). Credential ids are long (up to 1023
  // bytes): keys carry their sha256 (base64url), which is also the passkey's id in the API.
  /** USER#<id> / PASSKEY#<credential hash>: one WebAuthn credential of the account. */
  passkey: (userId: string, credentialHash: string) => ({ pk: `${PK.user}${userId}`, sk: `${SK.passkey}${credentialHash}` }),
  /** PASSKEYID#<credential hash> / PASSKEY: which account a credential belongs to (holds user_id). */
  passkeyLookup: (credentialHash: string) => ({ pk: `${PK.passkeyId}${credentialHash}`, sk: 'PASSKEY' }),
  /** WEBAUTHN#<id> / CHALLENGE: a registration or sign-in challenge (TTL, deleted on use). */
  webauthnChallenge: (challengeId: string) => ({ pk: `${PK.webauthn}${challengeId}`, sk: 'CHALLENGE' }),
  /** USER#<id> / BROWSER#<cookie hash>: a browser this account has signed in from (TTL). */
  knownBrowser: (userId: string, browserHash: string) => ({ pk: `${PK.user}${userId}`, sk: `${SK.browser}${browserHash}` }),
  // Write-sharded day counters (functions/lib/stats.ts dayCounterUpdate): a burst of learners
  // adds to many items of the day instead of one hot item; readers sum `DAY#<day>` and its shards.
  dailyActiveShard: (day: string, shard: number) => ({
    pk: dayCounterPartition('DAILYACTIVE'),
    sk: `${SK.day}${day}#${String(shard).padStart(2, '0')}`,
  }),
  lastActiveDayShard: (day: string, shard: number) => ({
    pk: dayCounterPartition('LASTACTIVE'),
    sk: `${SK.day}${day}#${String(shard).padStart(2, '0')}`,
  }),
  enrollDayShard: (day: string, shard: number) => ({
    pk: dayCounterPartition('ENROLLDAY'),
    sk: `${SK.day}${day}#${String(shard).padStart(2, '0')}`,
  }),
  // Hard delete in the background (functions/admin/purge-job.ts): the job's state and checkpoint.
  purgeJob: (userId: string) => ({ pk: `${PK.purge}${userId}`, sk: 'JOB' }),
  migration: (name: string) => ({ pk: `${PK.migration}${name}`, sk: 'APPLIED' }),
  // Reminder fan-out (functions/program/reminders.ts): one checkpoint per day and index partition.
  reminderCheckpoint: (day: string, partition: string) => ({ pk: `${PK.job}reminders#${day}`, sk: `${SK.part}${partition}` }),
  // Erasure after retention (functions/admin/erasure.ts): the day's run and its cursor.
  erasureCheckpoint: (day: string) => ({ pk: `${PK.job}erasure#${day}`, sk: 'STATE' }),
  // Reconciliation of the counters (functions/admin/counter-reconcile.ts): a day's run (its walk's
  // checkpoint, then the drift it saw) and what the last finished run saw, which the next compares with.
  reconcileRun: (day: string) => ({ pk: `${PK.job}reconcile#${day}`, sk: 'STATE' }),
  reconcileLast: () => ({ pk: `${PK.job}reconcile`, sk: 'LAST' }),
  // Rebuild of what the table's stream derives, over a window of days (functions/admin/derived-data-rebuild.ts).
  rebuildCheckpoint: (from: string, to: string) => ({ pk: `${PK.job}rebuild#${from}#${to}`, sk: 'STATE' }),
  // Security notices waiting to be sent (functions/accounts/deferred-notices.ts): one partition, oldest first.
  deferredNotice: (deferredAt: string, id: string) => ({ pk: deferredNoticePartition, sk: `${deferredAt}#${id}` }),
};

/** Seconds since the epoch, the unit DynamoDB TTL reads. */
export const ttlIn = (seconds: number, now = nowMs()) => Math.floor(now / 1000) + seconds;
