import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { config } from './config';
import { instrumentClient } from './local-twin';
import { count, METRIC } from './metrics';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export type Delivery = 'sent' | 'sandbox' | 'allowlist_block';

let client: SESClient | undefined;
/** The process-wide SES client; locally it points at aws-ses-v2-local. */
export function ses(): SESClient {
  const cfg = config();
  client ??= instrumentClient(
    new SESClient({
      region: cfg.region,
      maxAttempts: 5, // SES throttling is retried by the SDK's standard retry strategy
      ...(cfg.sesEndpoint ? { endpoint: cfg.sesEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
  return client;
}

/** For tests that swap the client (aws-sdk-client-mock works on the class, this only resets). */
export function resetSesClientForTests(): void {
  client = undefined;
}

/**
 * Sends a text + HTML email. Addresses outside EMAIL_ALLOWLIST (when set) are not sent to;
 * locally every email lands in the mail viewer ("sandbox").
 */
export async function sendEmail(message: EmailMessage): Promise<Delivery> {
  const cfg = config();
  if (blockedByAllowlist(message.to)) return 'allowlist_block';
  await ses()
    .send(
      new SendEmailCommand({
        Source: cfg.mailFrom,
        ...(cfg.sesConfigurationSet ? { ConfigurationSetName: cfg.sesConfigurationSet } : {}),
        Destination: { ToAddresses: [message.to] },
        Message: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: {
            Text: { Data: message.text, Charset: 'UTF-8' },
            Html: { Data: message.html, Charset: 'UTF-8' },
          },
        },
      }),
    )
    .catch((error: unknown) => {
      count(METRIC.emailsFailed);
      throw error;
    });
  count(METRIC.emailsSent);
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
