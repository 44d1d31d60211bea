import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writeAudit } from './audit';
import { db, tableName } from './db';
import { keys } from './table';
import type { EmailSuppression, UserRecord } from './user-record';
import { currentDate } from './clock';

/**
 * Addresses SES reported as hard-bounced or complaining (functions/jobs/ses-events.ts) carry
 * `email_suppressed` on the account item. Optional mail (reminders) is not sent to them; codes,
 * password resets and security notices still try, because the learner may have fixed the mailbox
 * and the account must stay usable. docs/runbook.md "Bounces and complaints" tells how to clear it.
 */
export function isEmailSuppressed(user: Pick<UserRecord, 'email_suppressed'>): boolean {
  return user.email_suppressed === 'bounce' || user.email_suppressed === 'complaint';
}

/**
 * Marks the account. A complaint outranks a bounce (and is never downgraded by a later bounce):
 * someone who pressed "spam" must not get reminders again once the mailbox works. Returns false
 * when nothing changed (already marked as strongly, or the account is gone).
 */
export async function markEmailSuppressed(
  user: Pick<UserRecord, 'id' | 'email' | 'email_suppressed'>,
  reason: EmailSuppression,
  now = currentDate(),
): Promise<boolean> {
  if (user.email_suppressed === 'complaint' || user.email_suppressed === reason) return false;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(user.id),
        UpdateExpression: 'SET email_suppressed = :reason, email_suppressed_at = :at ADD version :one',
        // Re-checked at write time: a complaint recorded meanwhile is not overwritten by a bounce.
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(email_suppressed) OR email_suppressed <> :complaint)',
        ExpressionAttributeValues: { ':reason': reason, ':at': now.toISOString(), ':one': 1, ':complaint': 'complaint' },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
  await writeAudit({
    action: reason === 'complaint' ? 'user.email_complained' : 'user.email_bounced',
    entityType: 'user',
    entityId: user.id,
    oldValues: { email_suppressed: user.email_suppressed ?? null },
    newValues: { email_suppressed: reason },
  });
  return true;
}
