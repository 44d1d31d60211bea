import { accepts } from '../lib/account-states';
import { callerOf } from '../lib/caller';
import { appUrl } from '../lib/app-url';
import { badRequest, notFound } from '../lib/errors';
import type { UserRecord } from '../lib/user-record';
import { DEFAULT_REMINDER_FREQUENCY } from '../../shared/constants';
import { defineRoute } from '../lib/http';
import { verifyUnsubscribeToken } from '../lib/unsubscribe-token';
import { getUserById } from '../lib/users';
import { isReminderFrequency, setFrequencyFromLink, unsubscribeAccount } from './notifications';

/**
 * The reminder's unsubscribe link (docs/product.md#unsubscribe). Public: the signed token in the
 * query names the account, no session is read.
 *
 * GET changes nothing (mail scanners and link previews follow GETs): a valid token is sent on to
 * the SPA's confirmation page (/unsubscribe?token=…), whose one button POSTs here. The page is
 * the SPA's so it looks like the product and is tested like every screen; the API keeps
 * answering JSON only (its CSP is default-src 'none').
 *
 * POST with the body `List-Unsubscribe=One-Click` (RFC 8058: a form body, sent by the mail
 * provider without Origin or cookies; the SPA sends the same as JSON) turns reminders off.
 */
const tokenOf = (query: Record<string, string | undefined>) => query.token?.trim() || undefined;

/** The account a valid token names; 404 once it is gone. */
async function linkedAccount(query: Record<string, string | undefined>): Promise<UserRecord> {
  const user = await getUserById(await verifyUnsubscribeToken(tokenOf(query)), false);
  if (!user || !accepts('emailLink', user.status)) throw notFound();
  return user;
}

export const unsubscribePageRoute = defineRoute({
  handler: async (request) => {
    const token = tokenOf(request.query);
    await linkedAccount(request.query);
    return {
      status: 303,
      headers: { Location: `${await appUrl()}/unsubscribe?token=${encodeURIComponent(token!)}` },
      body: { ok: true },
    };
  },
});

export const unsubscribeRoute = defineRoute({
  formBody: true,
  handler: async (request) => {
    const userId = await verifyUnsubscribeToken(tokenOf(request.query));
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body['List-Unsubscribe'] !== 'One-Click') throw badRequest('invalid_unsubscribe_body');
    const result = await unsubscribeAccount(userId, callerOf(request));
    return { body: { reminder_frequency: result.reminder_frequency } };
  },
});

/**
 * What the unsubscribe page shows before anything is pressed: the address the reminders go to
 * (the token's holder got them there) and the current frequency, so an account whose reminders
 * are already off is told so instead of being offered to stop them, and one whose reminders are
 * paused (4 weeks without activity) is offered to resume them.
 */
export const subscriptionRoute = defineRoute({
  handler: async (request) => {
    const user = await linkedAccount(request.query);
    return {
      body: {
        email: user.email,
        reminder_frequency: user.reminder_frequency ?? DEFAULT_REMINDER_FREQUENCY,
        reminders_paused: Boolean(user.reminders_paused_at),
      },
    };
  },
});

/**
 * The page's other choices: "weekly instead" and turning reminders back on (which also resumes
 * paused reminders: the paused email's link opens this page), with the same token.
 * JSON only (the usual CSRF rule): unlike the one-click POST, no mail provider sends this.
 */
export const setSubscriptionRoute = defineRoute({
  handler: async (request) => {
    const userId = await verifyUnsubscribeToken(tokenOf(request.query));
    const frequency = ((request.body ?? {}) as Record<string, unknown>).reminder_frequency;
    if (!isReminderFrequency(frequency)) throw badRequest('invalid_reminder_frequency');
    const result = await setFrequencyFromLink(userId, callerOf(request), frequency);
    return { body: { reminder_frequency: result.reminder_frequency } };
  },
});
