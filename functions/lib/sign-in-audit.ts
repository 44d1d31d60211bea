import type { DynamoDBRecord } from 'aws-lambda';
import { writeAuditOnce, type AuditInput } from './audit';
import { forEachBounded } from './bounded';
import { imageText, type StreamImage } from './stream-image';
import { keyAfter, PK, SK } from './table';

/**
 * The `auth.login` audit entry of a sign-in, written off the request path (docs/scale-writes.md
 * "Sign-in cost, measured"): the sign-in puts its new session item with a note of what the entry
 * needs ({@link signInNote}: the actor's email and how the person signed in), and the activity
 * aggregator (functions/jobs/activity-stream.ts) turns each such session INSERT of the table's
 * stream into the entry, dated at the session's start, with the session's address and browser.
 * The entry's id is the session id and it is put only if absent, so a batch Lambda delivers
 * again writes it once. The audit log shows it once the stream is drained (seconds).
 */
const EMAIL = 'sign_in_email';
const VALUES = 'sign_in_values';

/** The session item's attributes that make its INSERT an `auth.login` entry. */
export function signInNote(email: string, values?: Record<string, unknown>): Record<string, string> {
  return { [EMAIL]: email, ...(values ? { [VALUES]: JSON.stringify(values) } : {}) };
}

/** The sign-ins among stream records: new session items that carry a note. */
export function signInAudits(records: readonly DynamoDBRecord[]): Array<{ id: string; at: Date; input: AuditInput }> {
  const found = [];
  for (const record of records) {
    if (record.eventName !== 'INSERT') continue;
    const item = record.dynamodb?.NewImage as StreamImage;
    const sk = imageText(item, 'sk');
    const email = imageText(item, EMAIL);
    if (!sk.startsWith(SK.session) || !email) continue;
    const userId = keyAfter(PK.user, imageText(item, 'pk'));
    const values = imageText(item, VALUES);
    found.push({
      id: keyAfter(SK.session, sk),
      at: new Date(imageText(item, 'created_at')),
      input: {
        action: 'auth.login',
        actor: { id: userId, email },
        entityType: 'user',
        entityId: userId,
        newValues: values ? (JSON.parse(values) as Record<string, unknown>) : null,
        ip: imageText(item, 'ip') || undefined,
        userAgent: imageText(item, 'user_agent') || undefined,
      },
    });
  }
  return found;
}

/** Writes the `auth.login` entries of a stream batch (each once). Returns how many were new. */
export async function writeSignInAudits(records: readonly DynamoDBRecord[]): Promise<number> {
  let written = 0;
  await forEachBounded(signInAudits(records), 8, async ({ id, at, input }) => {
    if (await writeAuditOnce(input, at, id)) written += 1;
  });
  return written;
}
