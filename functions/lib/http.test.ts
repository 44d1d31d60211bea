import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { resetConfigForTests } from './config';
import { badRequest } from './errors';
import { createGroupHandler, defineRoute } from './http';

const context = { awsRequestId: 'req-1', functionName: 'test', getRemainingTimeInMillis: () => 1000 } as unknown as Context;

function event(method: string, body?: string, headers: Record<string, string> = {}): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: `${method} /api/health`,
    rawPath: '/api/health',
    rawQueryString: '',
    headers,
    body,
    isBase64Encoded: false,
    requestContext: {
      http: { method, path: '/api/health', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'req-1',
      routeKey: `${method} /api/health`,
    },
  } as unknown as APIGatewayProxyEventV2;
}

const run = (impl: Parameters<typeof defineRoute>[0], input = event('GET')) =>
  createGroupHandler('auth', { 'GET /api/health': impl })(input, context) as Promise<{
    statusCode: number;
    body: string;
    headers: Record<string, string>;
  }>;

describe('the standard middy chain', () => {
  it('answers an unexpected error with a bare 500 and no internals', async () => {
    const response = await run({
      handler: () => Promise.reject(new Error('db password is hunter2')),
    });
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({ error: 'internal_error' });
    expect(response.body).not.toContain('hunter2');
  });

  it('maps typed errors to their status and code, with details', async () => {
    const response = await run({
      handler: () => Promise.reject(badRequest('missing_fields', { fields: ['email'] })),
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 'missing_fields', fields: ['email'] });
  });

  it('validates the query with the route schema (400 invalid_request with the fields)', async () => {
    const response = await run({ query: z.object({ page: z.coerce.number().int().min(1) }), handler: () => Promise.resolve({}) });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: 'invalid_request', fields: ['page'] });
  });

  it('adds security headers to successes and failures', async () => {
    const ok = await run({ handler: () => Promise.resolve({ body: { ok: true } }) });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(ok.headers['Cache-Control']).toBe('no-store');
    const failed = await run({
      handler: () => Promise.reject(new Error('boom')),
    });
    expect(failed.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(failed.headers['Cache-Control']).toBe('no-store');
    const refused = await run({ handler: () => Promise.reject(badRequest('missing_fields')) });
    expect(refused.headers['Cache-Control']).toBe('no-store');
  });

  it('refuses a route key that is not in the route table at startup', () => {
    expect(() => createGroupHandler('auth', { 'GET /api/unknown': { handler: () => Promise.resolve({}) } })).toThrow(
      /not in the route table/,
    );
  });
});

describe('the Origin check of state-changing calls', () => {
  /** The site's address (APP_URL in the unit tests) and the one it had before it moved to it. */
  const SITE = 'http://localhost:3000';
  const OLD_ADDRESS = 'https://d111111abcdef8.cloudfront.net';
  const post = (origin: string) => {
    const request = event('POST', '{}', { origin, 'content-type': 'application/json' });
    Object.assign(request, { routeKey: 'POST /api/auth/logout', rawPath: '/api/auth/logout' });
    Object.assign(request.requestContext, { routeKey: 'POST /api/auth/logout' });
    Object.assign(request.requestContext.http, { path: '/api/auth/logout' });
    return createGroupHandler('auth', { 'POST /api/auth/logout': { handler: () => Promise.resolve({ body: { ok: true } }) } })(
      request,
      context,
    ) as Promise<{ statusCode: number; body: string }>;
  };
  afterEach(() => {
    delete process.env.PREVIOUS_SITE_ORIGINS;
    resetConfigForTests();
  });

  it('accepts the old address too while the site moves to its own domain (PREVIOUS_SITE_ORIGINS), and nothing else', async () => {
    // by default only the site's own origin
    expect((await post(SITE)).statusCode).toBe(200);
    const before = await post(OLD_ADDRESS);
    expect(before.statusCode).toBe(403);
    expect(JSON.parse(before.body)).toEqual({ error: 'bad_origin' });

    process.env.PREVIOUS_SITE_ORIGINS = OLD_ADDRESS;
    resetConfigForTests();
    expect((await post(SITE)).statusCode).toBe(200);
    expect((await post(OLD_ADDRESS)).statusCode).toBe(200);
    const foreign = await post('https://evil.example');
    expect(foreign.statusCode).toBe(403);
    expect(JSON.parse(foreign.body)).toEqual({ error: 'bad_origin' });
  });
});

describe('clientIp', () => {
  const base = { requestContext: { http: { sourceIp: '130.176.1.1' } } } as never;
  it('uses the source IP locally', async () => {
    const { clientIp } = await import('./http');
    expect(clientIp({ ...(base as object), headers: { 'cloudfront-viewer-address': '198.51.100.10:46532' } } as never)).toBe('130.176.1.1');
  });
});

describe('AWS throttling', () => {
  it('answers 503 unavailable with Retry-After when DynamoDB still throttles after the SDK retries', async () => {
    const { mockClient } = await import('aws-sdk-client-mock');
    const { DynamoDBDocumentClient, GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { ProvisionedThroughputExceededException } = await import('@aws-sdk/client-dynamodb');
    const { db } = await import('./db');
    const dynamo = mockClient(DynamoDBDocumentClient);
    dynamo.on(GetCommand).rejects(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }));
    try {
      const response = await run({
        handler: async () => {
          await db().send(new GetCommand({ TableName: 't', Key: { pk: 'x', sk: 'y' } }));
          return {};
        },
      });
      expect(response.statusCode).toBe(503);
      expect(JSON.parse(response.body)).toEqual({ error: 'unavailable' });
      expect(response.headers['Retry-After']).toBe('2');
    } finally {
      dynamo.restore();
    }
  });
});
