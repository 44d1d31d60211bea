import { callerOf } from '../lib/caller';
import { appUrl } from '../lib/app-url';
import { badRequest, notFound } from '../lib/errors';
import { defineRoute } from '../lib/http';
import { verifyUnsubscribeToken } from '../lib/unsubscribe-token';
import { getUserById } from '../lib/users';
import { unsubscribeAccount } from './notifications';

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

export const unsubscribePageRoute = defineRoute({
  handler: async (request) => {
    const token = tokenOf(request.query);
    const userId = await verifyUnsubscribeToken(token);
    const user = await getUserById(userId, false);
    if (!user || user.status === 'purging') throw notFound();
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
