import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from './config';
import { count, METRIC } from './metrics';
import { forgetSesAccount, noteMailSent, sesAccountFigures, SES_ACCOUNT_MAX_AGE_MS, type SesAccountFigures } from './ses-account';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (SES v2 Simple content), e.g. the reminders' List-Unsubscribe (RFC 8058). */
  headers?: Array<{ name: string; value: string }>;
  /** Where an answer goes (the sender is a no-reply address). */
  replyTo?: string;
}

/** Bulk ("list") mail: the reminders carry their unsubscribe headers (docs/product.md#unsubscribe). */
export interface ListEmailMessage extends EmailMessage {
  headers: Array<{ name: string; value: string }>;
}

export type Delivery = 'sent' | 'sandbox' | 'allowlist_block';

/**
 * Which of the two mail streams a message goes out on (docs/scale-writes.md#two-mail-streams).
 * Transactional mail (codes, resets, security notices, verification) and bulk mail (reminders)
 * use separate SES configuration sets, so each has its own reputation figures and alarms and a
 * complaint spike from reminders is seen, and acted on, apart from the sign-in codes.
 */
export type MailStream = 'transactional' | 'bulk';

/**
 * The SES client, created on the first send: most requests send no mail, so a cold start does not
 * load (or evaluate) the SES client (docs/lean-builds.md#cold-start).
 */
// eslint-disable-next-line import-x/no-unresolved -- ./ses-client.ts; in a bundle, the file beside index.js (LAZY_CHUNKS)
const sesClientModule = () => import('./ses-client.js');

let client: Promise<SESv2Client> | undefined;
/** The process-wide SES v2 client; locally it points at the local SES (infra/local/ses-front.ts). */
export function ses(): Promise<SESv2Client> {
  client ??= sesClientModule().then(({ createSesClient }) => createSesClient());
  return client;
}

/** For tests that swap the client (aws-sdk-client-mock works on the class, this only resets); also forgets the account's figures. */
export function resetSesClientForTests(): void {
  client = undefined;
  forgetSesAccount();
}

/**
 * The SES account's limits and what it sent in the last 24 hours (SES v2 GetAccount), at most
 * `maxAgeMs` old (functions/lib/ses-account.ts; 0: read now).
 */
export async function sesAccount(maxAgeMs = SES_ACCOUNT_MAX_AGE_MS): Promise<SesAccountFigures> {
  return sesAccountFigures(async () => {
    const [{ GetAccountCommand }, sesClient] = await Promise.all([sesClientModule(), ses()]);
    return (await sesClient.send(new GetAccountCommand({}))).SendQuota;
  }, maxAgeMs);
}

/**
 * Sends a text + HTML email (SES v2 SendEmail, Simple content, with the message's headers) on
 * the stream's configuration set.
 * Addresses outside EMAIL_ALLOWLIST (when set) are not sent to; locally every email lands in the
 * mail viewer ("sandbox").
 */
export async function sendEmail(message: EmailMessage, stream: MailStream = 'transactional'): Promise<Delivery> {
  const cfg = config();
  if (blockedByAllowlist(message.to)) return 'allowlist_block';
  const configurationSet = stream === 'bulk' ? cfg.sesBulkConfigurationSet : cfg.sesConfigurationSet;
  const [{ SendEmailCommand }, client] = await Promise.all([sesClientModule(), ses()]);
  await client
    .send(
      new SendEmailCommand({
        FromEmailAddress: cfg.mailFrom,
        ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
        Destination: { ToAddresses: [message.to] },
        ...(message.replyTo ? { ReplyToAddresses: [message.replyTo] } : {}),
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: message.text, Charset: 'UTF-8' },
              Html: { Data: message.html, Charset: 'UTF-8' },
            },
            ...(message.headers?.length ? { Headers: message.headers.map(({ name, value }) => ({ Name: name, Value: value })) } : {}),
          },
        },
      }),
    )
    .catch((error: unknown) => {
      count(METRIC.emailsFailed);
      throw error;
    });
  count(METRIC.emailsSent);
  noteMailSent();
  return cfg.localMail ? 'sandbox' : 'sent';
}

/** EMAIL_ALLOWLIST (a staging safety net): true when the address is not on it. */
export function blockedByAllowlist(to: string): boolean {
  const allowlist = config().emailAllowlist;
  return Boolean(allowlist && !allowlist.includes(to.trim().toLowerCase()));
}

const escapeMap: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => escapeMap[ch]);

/** Wraps paragraphs of already-escaped HTML in the product's simple, accessible email layout. */
export function emailLayout(title: string, bodyHtml: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7fb;font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
${bodyHtml}
<p style="font-size:12px;color:#6b7280;margin-top:24px">4-Week Career Program</p>
</div></body></html>`;
}
