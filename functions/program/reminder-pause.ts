import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dayOf } from '../lib/activity';
import { db, tableName } from '../lib/db';
import { emailLayout, escapeHtml, type ListEmailMessage } from '../lib/email';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';

/**
 * Reminders pause for learners who left (docs/product.md#reminders-pause): a learner whose last
 * activity (a sign-in or a task save, `last_active_day`, functions/lib/activity.ts) is
 * INACTIVE_DAYS or more before a reminder run gets one "we've paused your reminders" email
 * instead of the reminder, with a link to resume them; the account keeps `reminders_paused_at`
 * and the enrollment leaves the reminder index, so later runs do not even read it. Mail nobody
 * opens hurts the sender's reputation with the mailbox providers, and the bulk share is better
 * spent on learners who still come. Decided by the reminder worker at send time (remind-one.ts),
 * never by a scan. Any activity (the activity aggregator), the email's link or Settings resume
 * them (notifications.ts resumeReminders). An account with no recorded activity day is never
 * paused: nothing says how long it has been away.
 */
export const INACTIVE_DAYS = 28;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Whether the learner's last activity day, or the day they last resumed reminders (a resume by
 * the link or Settings counts as coming back), is INACTIVE_DAYS or more before `now`'s UTC day.
 */
export function isInactive(user: Pick<UserRecord, 'last_active_day' | 'reminders_resumed_at'>, now: Date): boolean {
  if (!user.last_active_day) return false;
  const resumed = user.reminders_resumed_at ? dayOf(new Date(user.reminders_resumed_at)) : '';
  const latest = resumed > user.last_active_day ? resumed : user.last_active_day;
  return latest <= dayOf(new Date(now.getTime() - INACTIVE_DAYS * DAY_MS));
}

/** Writes the pause state; false when the account is already paused (another worker got there first) or gone. */
export async function pauseReminders(userId: string, now: Date): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(userId),
        UpdateExpression: 'SET reminders_paused_at = :at',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(reminders_paused_at)',
        ExpressionAttributeValues: { ':at': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Takes back a pause whose email could not be sent: a later run decides again. */
export async function unpause(userId: string, pausedAt: Date): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(userId),
        UpdateExpression: 'REMOVE reminders_paused_at',
        ConditionExpression: 'reminders_paused_at = :at',
        ExpressionAttributeValues: { ':at': pausedAt.toISOString() },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

export interface PausedEmailInput {
  to: string;
  firstName?: string;
  programTitle: string;
  baseUrl: string;
  /** `<app>/api/notifications/unsubscribe?token=…`: the reminders page, where they resume or stop (functions/lib/unsubscribe-token.ts). */
  linkUrl: string;
}

/** The one email a paused learner gets: what happened, the resume link, and that coming back resumes them too. */
export function pausedEmail(input: PausedEmailInput): ListEmailMessage {
  const name = input.firstName?.trim() || 'there';
  const subject = "We've paused your reminders";
  const text = [
    `Hi ${name},`,
    `You haven't been back to the ${input.programTitle} for 4 weeks, so we've paused your reminder emails.`,
    `Resume them with one click: ${input.linkUrl}`,
    `Signing in or saving a task resumes them too: ${input.baseUrl}`,
  ].join('\n\n');
  const html = emailLayout(
    subject,
    [
      `<p>Hi ${escapeHtml(name)},</p>`,
      `<p>You haven't been back to the ${escapeHtml(input.programTitle)} for 4 weeks, so we've paused your reminder emails.</p>`,
      `<p><a href="${escapeHtml(input.linkUrl)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Resume reminders</a></p>`,
      `<p style="font-size:13px;color:#4b5563">Signing in or saving a task resumes them too.</p>`,
    ].join('\n'),
  );
  const headers = [
    { name: 'List-Unsubscribe', value: `<${input.linkUrl}>` },
    { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
  ];
  return { to: input.to, subject, text, html, headers };
}
