import { MessageRejected, SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfigForTests } from './config';
import { resetSesClientForTests, sendEmail } from './email';
import { METRIC, metrics } from './metrics';

const ses = mockClient(SESClient);
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
