/**
 * The single-table layout: key attribute names, GSI definitions and key builders.
 * The CDK table (infra/) and the local table setup are built from these same definitions.
 *
 * Item kinds (pk / sk):
 *   USER#<id>            / PROFILE              the account (gsi1: all users newest first, gsi2: users by status)
 *   EMAIL#<email lower>  / EMAIL                uniqueness guard for an email, holds user_id
 *   USER#<id>            / SESSION#<sid>        a signed-in session (TTL = absolute expiry)
 *   USER#<id>            / CODE#<purpose>       a hashed 6-digit code (verify email, 2FA) (TTL)
 *   CHALLENGE#<id>       / CHALLENGE            a login 2FA challenge (TTL)
 *   RESET#<token hash>   / RESET                a password reset token (TTL)
 *   RATE#<scope>#<key>   / WINDOW#<start>       a rate-limit window (TTL)
 *   RATE#login_backoff#<email lower>[#<source>] / STATE   consecutive failed logins of one account
 *                                               from one source (device:<id> or ip:<block>) and
 *                                               the next allowed try (TTL; docs/security.md M1)
 *   AUDIT#<yyyy-mm-dd>   / <iso time>#<id>      an audit entry (gsi1: per entity, newest first)
 *   ACTIVITY#<yyyy-mm-dd>/ USER#<id>            a learner was active that day (login or task)
 *   STATS#GLOBAL#<shard> / COUNTERS             write-sharded aggregate counters (functions/lib/stats.ts)
 *   STATS#LASTACTIVE     / DAY#<yyyy-mm-dd>      how many accounts were last active that day
 *   STATS#DAILYACTIVE    / DAY#<yyyy-mm-dd>      how many distinct learners were active that day
 *   PROGRAM#<program>    / META                 program content version marker (hash, title, counts)
 *   PROGRAM#<program>    / MODULE#<ww>#<pp>     a copy of one module's content (seeded, for tools)
 *   USER#<id>            / ENROLLMENT#<program> an enrollment: status, percent_complete, counts,
 *                                               open_module_id, enrolled_at, week1_completed_at,
 *                                               version; gsi3 REMIND#daily#<shard> or
 *                                               REMIND#weekly#<weekday>#<shard> / <user id> only
 *                                               while reminders are due (sparse)
 *   USER#<id>            / PROGRESS#<program>#<module id>   one module's status (open, completed,
 *                                               locked), started_at, completed_at
 *   USER#<id>            / TASK#<program>#<module id>#<task id>  one task's done flag and answer
 *   USER#<id>            / REMINDER#<yyyy-mm-dd> a reminder was sent that day (TTL)
 *   STATS#ENROLLDAY      / DAY#<yyyy-mm-dd>      enrollments of that enroll day and how many of
 *                                               them completed week 1 within 7 days (drop-off)
 *   USER#<id>            / CERTIFICATE#<program> the learner's certificate of completion (code, names,
 *                                               completed_at, revoked_at); CERT#<code> / CERTIFICATE
 *                                               is its public copy for verification by code
 *   USERSEARCH#<c>       / <value>#<id>#<field>  admin prefix search: one item per lower-cased
 *                                               email, first and last name of an account
 *                                               (<c> = the value's first character)
 *   STATS#<DAILYACTIVE|LASTACTIVE|ENROLLDAY> / DAY#<yyyy-mm-dd>#<shard>  the same day counters,
 *                                               write-sharded (a day's value = the sum of its items)
 *   PURGE#<user id>      / JOB                  a hard delete in progress: its step and checkpoint
 *   JOB#reminders#<day>  / PART#<partition>     the reminder fan-out's checkpoint per index partition
 *   ENROLLMENT items also carry gsi4 WEEK1#PENDING / <enrolled_at>#<user id> until week 1 is
 *   completed on time (the week-1 drop-off cohort, functions/lib/stats.ts)
 */
export const KEY = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttl: 'expires_at',
} as const;

export interface GsiDef {
  indexName: string;
  partitionKey: string;
  sortKey: string;
}

/** Generic, sparse GSIs: an item is in an index only when it carries that index's key attributes. */
export const GSIS: readonly GsiDef[] = [
  { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  { indexName: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
  { indexName: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
];

export const keys = {
  user: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  email: (email: string) => ({ pk: `EMAIL#${email.trim().toLowerCase()}`, sk: 'EMAIL' }),
  session: (userId: string, sessionId: string) => ({ pk: `USER#${userId}`, sk: `SESSION#${sessionId}` }),
  code: (userId: string, purpose: string) => ({ pk: `USER#${userId}`, sk: `CODE#${purpose}` }),
  challenge: (challengeId: string) => ({ pk: `CHALLENGE#${challengeId}`, sk: 'CHALLENGE' }),
  resetToken: (tokenHash: string) => ({ pk: `RESET#${tokenHash}`, sk: 'RESET' }),
  rateWindow: (scope: string, key: string, windowStart: number) => ({
    pk: `RATE#${scope}#${key}`,
    sk: `WINDOW#${windowStart}`,
  }),
  loginBackoff: (email: string, source?: string) => ({
    pk: `RATE#login_backoff#${email.trim().toLowerCase()}${source ? `#${source}` : ''}`,
    sk: 'STATE',
  }),
  activity: (day: string, userId: string) => ({ pk: `ACTIVITY#${day}`, sk: `USER#${userId}` }),
  audit: (createdAt: string, id: string) => ({ pk: `AUDIT#${createdAt.slice(0, 10)}`, sk: `${createdAt}#${id}` }),
  statsShard: (shard: number) => ({ pk: `STATS#GLOBAL#${shard}`, sk: 'COUNTERS' }),
  lastActiveDay: (day: string) => ({ pk: 'STATS#LASTACTIVE', sk: `DAY#${day}` }),
  dailyActive: (day: string) => ({ pk: 'STATS#DAILYACTIVE', sk: `DAY#${day}` }),
  programMeta: (programId: string) => ({ pk: `PROGRAM#${programId}`, sk: 'META' }),
  programModule: (programId: string, week: number, position: number) => ({
    pk: `PROGRAM#${programId}`,
    sk: `MODULE#${String(week).padStart(2, '0')}#${String(position).padStart(2, '0')}`,
  }),
  enrollment: (userId: string, programId: string) => ({ pk: `USER#${userId}`, sk: `ENROLLMENT#${programId}` }),
  moduleProgress: (userId: string, programId: string, moduleId: string) => ({
    pk: `USER#${userId}`,
    sk: `PROGRESS#${programId}#${moduleId}`,
  }),
  taskAnswer: (userId: string, programId: string, moduleId: string, taskId: string) => ({
    pk: `USER#${userId}`,
    sk: `TASK#${programId}#${moduleId}#${taskId}`,
  }),
  reminderSent: (userId: string, day: string) => ({ pk: `USER#${userId}`, sk: `REMINDER#${day}` }),
  enrollDay: (day: string) => ({ pk: 'STATS#ENROLLDAY', sk: `DAY#${day}` }),
  /** A learner's certificate of completion for a program (holds its public verification code). */
  userCertificate: (userId: string, programId: string) => ({ pk: `USER#${userId}`, sk: `CERTIFICATE#${programId}` }),
  /** The public copy of a certificate, looked up by its verification code (no session needed). */
  certificate: (code: string) => ({ pk: `CERT#${code}`, sk: 'CERTIFICATE' }),
  userSearch: (value: string, userId: string, field: string) => ({
    pk: `USERSEARCH#${value.slice(0, 1)}`,
    sk: `${value}#${userId}#${field}`,
  }),
  // Account security center (docs/account-security.md). Credential ids are long (up to 1023
  // bytes): keys carry their sha256 (base64url), which is also the passkey's id in the API.
  /** USER#<id> / PASSKEY#<credential hash>: one WebAuthn credential of the account. */
  passkey: (userId: string, credentialHash: string) => ({ pk: `USER#${userId}`, sk: `PASSKEY#${credentialHash}` }),
  /** PASSKEYID#<credential hash> / PASSKEY: which account a credential belongs to (holds user_id). */
  passkeyLookup: (credentialHash: string) => ({ pk: `PASSKEYID#${credentialHash}`, sk: 'PASSKEY' }),
  /** WEBAUTHN#<id> / CHALLENGE: a registration or sign-in challenge (TTL, deleted on use). */
  webauthnChallenge: (challengeId: string) => ({ pk: `WEBAUTHN#${challengeId}`, sk: 'CHALLENGE' }),
  /** USER#<id> / BROWSER#<cookie hash>: a browser this account has signed in from (TTL). */
  knownBrowser: (userId: string, browserHash: string) => ({ pk: `USER#${userId}`, sk: `BROWSER#${browserHash}` }),
  // Write-sharded day counters (functions/lib/stats.ts dayCounterUpdate): a burst of learners
  // adds to many items of the day instead of one hot item; readers sum `DAY#<day>` and its shards.
  dailyActiveShard: (day: string, shard: number) => ({ pk: 'STATS#DAILYACTIVE', sk: `DAY#${day}#${String(shard).padStart(2, '0')}` }),
  lastActiveDayShard: (day: string, shard: number) => ({ pk: 'STATS#LASTACTIVE', sk: `DAY#${day}#${String(shard).padStart(2, '0')}` }),
  enrollDayShard: (day: string, shard: number) => ({ pk: 'STATS#ENROLLDAY', sk: `DAY#${day}#${String(shard).padStart(2, '0')}` }),
  // Hard delete in the background (functions/admin/purge.ts): the job's state and checkpoint.
  purgeJob: (userId: string) => ({ pk: `PURGE#${userId}`, sk: 'JOB' }),
  // Reminder fan-out (functions/program/reminder-fanout.ts): one checkpoint per day and index partition.
  reminderCheckpoint: (day: string, partition: string) => ({ pk: `JOB#reminders#${day}`, sk: `PART#${partition}` }),
};

/** Seconds since the epoch, the unit DynamoDB TTL reads. */
export const ttlIn = (seconds: number, now = Date.now()) => Math.floor(now / 1000) + seconds;
