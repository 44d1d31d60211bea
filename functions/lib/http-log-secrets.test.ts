import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { badRequest } from './errors';
import { createGroupHandler, type RouteImpl } from './http';
import { logger } from './logger';

/**
 * The functions' own log lines (docs/security.md "Reset links and the `?token=` in the address"):
 * a request whose query string and Referer carry a token is logged by its route template only,
 * whether it succeeds, is refused or crashes.
 */
const TOKEN = 'tok-4f1c9e0b7d2a';
const context = { awsRequestId: 'req-1', functionName: 'test', getRemainingTimeInMillis: () => 1000 } as unknown as Context;
const ROUTE = 'GET /api/auth/password-reset/validate';

const event = {
  version: '2.0',
  routeKey: ROUTE,
  rawPath: '/api/auth/password-reset/validate',
  rawQueryString: `token=${TOKEN}`,
  queryStringParameters: { token: TOKEN },
  headers: { referer: `https://learn.example.org/reset-password?token=${TOKEN}`, 'user-agent': 'vitest' },
  isBase64Encoded: false,
  requestContext: {
    http: { method: 'GET', path: '/api/auth/password-reset/validate', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
    requestId: 'req-1',
    routeKey: ROUTE,
  },
} as unknown as APIGatewayProxyEventV2;

/** Everything handed to the logger while the request runs. */
async function loggedWhile(impl: RouteImpl): Promise<string> {
  const spies = (['debug', 'info', 'warn', 'error', 'critical', 'appendKeys', 'addContext'] as const).map((method) =>
    vi.spyOn(logger, method),
  );
  await createGroupHandler('auth', { [ROUTE]: impl })(event, context);
  return JSON.stringify(spies.map((spy) => spy.mock.calls));
}

afterEach(() => vi.restoreAllMocks());

describe('request log lines', () => {
  it('name the route, never the query string or the Referer: answered, refused, or crashed', async () => {
    const answers: RouteImpl[] = [
      { handler: () => Promise.resolve({ body: { ok: true } }) },
      { handler: () => Promise.reject(badRequest('invalid_or_expired')) },
      { handler: () => Promise.reject(new Error('table gone')) },
    ];
    for (const impl of answers) {
      const logged = await loggedWhile(impl);
      expect(logged).toContain(ROUTE);
      expect(logged).not.toContain(TOKEN);
    }
  });
});
