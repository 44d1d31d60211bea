import type { DynamoDBRecord } from 'aws-lambda';
import { writeAuditOnce, type AuditInput } from './audit';
import { batchGetItems } from './batch-items';
import { forEachBounded } from './bounded';
import { imageText, type StreamImage } from './stream-image';
import { keyAfter, keys, PK, SK } from './table';

/**
 * The `auth.login` audit entry of a sign-in, written off the request path (docs/scale-writes.md
 * "Sign-in cost, measured"): the sign-in puts its new session item with a note of what the entry
 * needs ({@link signInNote}: the actor's email and how the person signed in), and the activity
 * aggregator (functions/jobs/activity-stream.ts) turns each such session INSERT of the table's
 * stream into the entry, dated at the session's start, with the session's address and browser.
 * The entry's id is the session id and it is put only if absent, so a batch Lambda delivers
 * again writes it once. The audit log shows it once the stream is drained (seconds). Nothing is
 * written for an account that is gone or being erased ({@link signInsOfLiveAccounts}).
 */
const EMAIL = 'sign_in_email';
const VALUES = 'sign_in_values';

/** The session item's attributes that make its INSERT an `auth.login` entry. */
export function signInNote(email: string, values?: Record<string, unknown>): Record<string, string> {
  return { [EMAIL]: email, ...(values ? { [VALUES]: JSON.stringify(values) } : {}) };
}

/** A sign-in's `auth.login` entry: its id (the session id), its time (the session's start) and what it records. */
export interface SignInAudit {
  id: string;
  at: Date;
  input: AuditInput;
}

/** The attributes of a session item that make its `auth.login` entry (a rebuild reads only these). */
export const SIGN_IN_SOURCE_FIELDS = ['pk', 'sk', 'created_at', EMAIL, VALUES, 'ip', 'user_agent'] as const;

/**
 * The `auth.login` entry of a session item, its attributes read through `text` ('' when absent):
 * undefined for an item that is not a session or carries no sign-in note. The stream reads its
 * records' images so, the rebuild the stored items (functions/admin/derived-data-rebuild.ts).
 */
export function signInAuditOf(text: (name: string) => string): SignInAudit | undefined {
  const sk = text('sk');
  const email = text(EMAIL);
  if (!sk.startsWith(SK.session) || !email) return undefined;
  const userId = keyAfter(PK.user, text('pk'));
  const values = text(VALUES);
  return {
    id: keyAfter(SK.session, sk),
    at: new Date(text('created_at')),
    input: {
      action: 'auth.login',
      actor: { id: userId, email },
      entityType: 'user',
      entityId: userId,
      newValues: values ? (JSON.parse(values) as Record<string, unknown>) : null,
      ip: text('ip') || undefined,
      userAgent: text('user_agent') || undefined,
    },
  };
}

/** The sign-ins among stream records: new session items that carry a note. */
export function signInAudits(records: readonly DynamoDBRecord[]): SignInAudit[] {
  return records.flatMap((record) => {
    if (record.eventName !== 'INSERT') return [];
    const image = record.dynamodb?.NewImage as StreamImage;
    return signInAuditOf((name) => imageText(image, name)) ?? [];
  });
}

/** Writes `auth.login` entries, each once (id = the session id). Returns how many were new. */
export async function writeSignInEntries(audits: readonly SignInAudit[]): Promise<number> {
  let written = 0;
  await forEachBounded(audits, 8, async ({ id, at, input }) => {
    if (await writeAuditOnce(input, at, id)) written += 1;
  });
  return written;
}

/**
 * The sign-ins whose account may still be written about: its profile is there and not being
 * erased (`purging`), read consistently, one BatchGetItem for the batch (1 read unit an
 * account). A record the stream delivers late or again — after the account's hard delete
 * started, scrubbed its audit entries or removed it — would otherwise write its email, address
 * and browser back into an entry and its references (and file them under the email's domain),
 * where no purge step looks again (docs/security.md#privacy-of-the-audit-log).
 */
export async function signInsOfLiveAccounts(audits: readonly SignInAudit[]): Promise<SignInAudit[]> {
  const ids = [...new Set(audits.map((audit) => audit.input.entityId))];
  if (!ids.length) return [];
  const profiles = await batchGetItems(
    ids.map((id) => keys.user(id)),
    { consistentRead: true, projection: ['id', 'status'] },
  );
  const live = new Set(profiles.filter((profile) => profile.status !== 'purging').map((profile) => String(profile.id)));
  return audits.filter((audit) => live.has(audit.input.entityId));
}

/** Writes the `auth.login` entries of a stream batch (each once) whose accounts are not erased. Returns how many were new. */
export const writeSignInAudits = async (records: readonly DynamoDBRecord[]): Promise<number> =>
  writeSignInEntries(await signInsOfLiveAccounts(signInAudits(records)));
