import { MessageRejected, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfigForTests } from './config';
import { resetSesClientForTests, sendEmail } from './email';
import { METRIC, metrics } from './metrics';

const ses = mockClient(SESv2Client);
const message = { to: 'ada@example.com', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' };

beforeEach(() => {
  ses.reset();
  resetConfigForTests();
  resetSesClientForTests();
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetConfigForTests();
});
afterAll(() => ses.restore());

describe('sendEmail', () => {
  it('sends with the SES configuration set when one is configured (bounce and complaint events)', async () => {
    vi.stubEnv('SES_CONFIGURATION_SET', 'career-program-mail');
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await sendEmail(message);
    expect(ses.commandCalls(SendEmailCommand)[0].args[0].input).toMatchObject({
      ConfigurationSetName: 'career-program-mail',
      Destination: { ToAddresses: ['ada@example.com'] },
    });
  });

  it('sends bulk mail with the bulk configuration set and transactional mail with its own', async () => {
    vi.stubEnv('SES_CONFIGURATION_SET', 'career-program-mail');
    vi.stubEnv('SES_BULK_CONFIGURATION_SET', 'career-program-bulk');
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await sendEmail(message, 'bulk');
    await sendEmail(message);
    expect(ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input.ConfigurationSetName)).toEqual([
      'career-program-bulk',
      'career-program-mail',
    ]);
  });

  it('sends one SES v2 SendEmail with Simple content: subject, text and HTML, and headers only when the message has them', async () => {
    vi.stubEnv('MAIL_FROM', 'program@example.org');
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await sendEmail(message);
    await sendEmail({ ...message, headers: [{ name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' }] });
    const [transactional, list] = ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input);
    expect(transactional).toEqual({
      FromEmailAddress: 'program@example.org',
      Destination: { ToAddresses: ['ada@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Hi', Charset: 'UTF-8' },
          Body: { Text: { Data: 'Hello', Charset: 'UTF-8' }, Html: { Data: '<p>Hello</p>', Charset: 'UTF-8' } },
        },
      },
    });
    expect(list.Content?.Simple?.Headers).toEqual([{ Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' }]);
  });

  it('does not send to an address outside EMAIL_ALLOWLIST', async () => {
    vi.stubEnv('EMAIL_ALLOWLIST', 'grace@example.com');
    await expect(sendEmail(message)).resolves.toBe('allowlist_block');
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('sends without a configuration set locally', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await sendEmail(message);
    expect(ses.commandCalls(SendEmailCommand)[0].args[0].input.ConfigurationSetName).toBeUndefined();
  });

  it('counts sent and failed emails; a failure still reaches the caller', async () => {
    const addMetric = vi.spyOn(metrics, 'addMetric');
    ses
      .on(SendEmailCommand)
      .resolvesOnce({ MessageId: 'm-1' })
      .rejectsOnce(new MessageRejected({ message: 'Email address is not verified.', $metadata: {} }));
    await sendEmail(message);
    await expect(sendEmail(message)).rejects.toBeInstanceOf(MessageRejected);
    expect(addMetric.mock.calls.map((call) => call[0])).toEqual([METRIC.emailsSent, METRIC.emailsFailed]);
  });
});
