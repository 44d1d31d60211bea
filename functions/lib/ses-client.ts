import { GetAccountCommand, SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { config } from './config';
import { instrumentClient } from './local-twin';
import { SesRetryStrategy } from './ses-retry';

/**
 * The SES part of functions/lib/email.ts, imported on the first send (a module of its own, so
 * the bundler keeps only the client and the commands it names: the send, and GetAccount for the
 * mail budgets).
 */
export { GetAccountCommand, SendEmailCommand };

export function createSesClient(): SESv2Client {
  const cfg = config();
  return instrumentClient(
    new SESv2Client({
      region: cfg.region,
      retryStrategy: new SesRetryStrategy(),
      ...(cfg.sesEndpoint ? { endpoint: cfg.sesEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
}
