import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { config } from './config';
import { instrumentClient } from './local-twin';
import { blockedByAllowlist, type Delivery, type EmailMessage } from './email';
import { count, METRIC } from './metrics';

/**
 * Bulk ("list") mail with its own headers: the reminders' List-Unsubscribe and
 * List-Unsubscribe-Post (RFC 8058; docs/product.md#unsubscribe). SES v1's SendEmail cannot set
 * headers; SES v2's Simple content can (`Headers`), so only this module uses the v2 client and
 * only the reminder worker's bundle carries it. Transactional mail stays on functions/lib/email.ts.
 */
export interface ListEmailMessage extends EmailMessage {
  headers: Array<{ name: string; value: string }>;
}

let client: SESv2Client | undefined;
/** The process-wide SES v2 client; locally it points at aws-ses-v2-local (which stores the headers). */
export function sesV2(): SESv2Client {
  const cfg = config();
  client ??= instrumentClient(
    new SESv2Client({
      region: cfg.region,
      maxAttempts: 5,
      ...(cfg.sesEndpoint ? { endpoint: cfg.sesEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
  return client;
}

export function resetSesV2ClientForTests(): void {
  client = undefined;
}

export async function sendListEmail(message: ListEmailMessage): Promise<Delivery> {
  const cfg = config();
  if (blockedByAllowlist(message.to)) return 'allowlist_block';
  await sesV2()
    .send(
      new SendEmailCommand({
        FromEmailAddress: cfg.mailFrom,
        ...(cfg.sesConfigurationSet ? { ConfigurationSetName: cfg.sesConfigurationSet } : {}),
        Destination: { ToAddresses: [message.to] },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: message.text, Charset: 'UTF-8' },
              Html: { Data: message.html, Charset: 'UTF-8' },
            },
            Headers: message.headers.map(({ name, value }) => ({ Name: name, Value: value })),
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
