import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '../../shared/origin-verify';
import { readConfig, resetConfigForTests } from './config';
import { createGroupHandler, defineRoute } from './http';
import { resetOriginSecretForTests } from './origin-verify';

/**
 * The origin check (docs/security.md#the-api-is-reachable-through-cloudfront-only): in the cloud the API answers only requests that came through our
 * CloudFront (the origin-verify header), and only then trusts CloudFront-Viewer-Address.
 */
const ORIGIN_SECRET = 'origin-secret-origin-secret-origin-secret';
const secrets = mockClient(SecretsManagerClient);
const saved = { ...process.env };
let handlerRuns = 0;

beforeAll(() => {
  delete process.env.SESSION_SECRET;
  Object.assign(process.env, {
    STAGE: 'cloud',
    SESSION_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:session',
    ORIGIN_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:origin',
  });
  resetConfigForTests();
  resetOriginSecretForTests();
  secrets.on(GetSecretValueCommand, { VersionStage: 'AWSCURRENT' }).resolves({ SecretString: ORIGIN_SECRET });
  secrets
    .on(GetSecretValueCommand, { VersionStage: 'AWSPREVIOUS' })
    .rejects(Object.assign(new Error('none'), { name: 'ResourceNotFoundException' }));
});
afterAll(() => {
  process.env = saved;
  resetConfigForTests();
  resetOriginSecretForTests();
  secrets.restore();
});

const context = { awsRequestId: 'req-1', functionName: 'test', getRemainingTimeInMillis: () => 1000 } as unknown as Context;
function event(headers: Record<string, string>): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'GET /api/health',
    rawPath: '/api/health',
    rawQueryString: '',
    headers,
    isBase64Encoded: false,
    requestContext: {
      http: { method: 'GET', path: '/api/health', protocol: 'HTTP/1.1', sourceIp: '130.176.1.1', userAgent: 'x' },
      requestId: 'r',
      routeKey: 'GET /api/health',
    },
  } as unknown as APIGatewayProxyEventV2;
}
const call = (headers: Record<string, string>) => {
  const handler = createGroupHandler('auth', {
    'GET /api/health': defineRoute({
      handler: (req) => {
        handlerRuns++;
        return Promise.resolve({ body: { ip: req.ip } });
      },
    }),
  });
  return handler(event(headers), context) as Promise<{ statusCode: number; body: string }>;
};

describe('the API behind CloudFront only (docs/security.md#the-api-is-reachable-through-cloudfront-only)', () => {
  it('refuses a direct call, with or without a forged viewer address, before any handler runs', async () => {
    const before = handlerRuns;
    const direct = await call({ 'cloudfront-viewer-address': '198.51.100.77:443' });
    expect(direct.statusCode).toBe(403);
    expect(JSON.parse(direct.body)).toEqual({ error: 'forbidden' });
    const wrong = await call({ [ORIGIN_VERIFY_HEADER]: 'x'.repeat(41), 'cloudfront-viewer-address': '198.51.100.77:443' });
    expect(wrong.statusCode).toBe(403);
    expect(handlerRuns).toBe(before);
  });

  it('trusts the viewer address on a request that came through CloudFront', async () => {
    const viaEdge = await call({ [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET, 'cloudfront-viewer-address': '2001:db8::7:46532' });
    expect(viaEdge.statusCode).toBe(200);
    expect(JSON.parse(viaEdge.body)).toEqual({ ip: '2001:db8::7' });
  });

  it('will not start in the cloud without the origin secret', () => {
    delete process.env.ORIGIN_SECRET_ARN;
    resetConfigForTests();
    try {
      expect(() => createGroupHandler('auth', {})).toThrow(/ORIGIN_SECRET_ARN/);
    } finally {
      process.env.ORIGIN_SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:1:secret:origin';
      resetConfigForTests();
    }
  });
});

describe('the local runtime, behind the local CloudFront stand-in', () => {
  const LOCAL_SECRET = 'local-origin-secret-local-origin-secret';
  beforeAll(() => {
    Object.assign(process.env, { STAGE: 'local', SESSION_SECRET: 'unit-test-secret-unit-test-secret', ORIGIN_SECRET: LOCAL_SECRET });
    resetConfigForTests();
  });
  afterAll(() => {
    delete process.env.SESSION_SECRET;
    delete process.env.ORIGIN_SECRET;
    process.env.STAGE = 'cloud';
    resetConfigForTests();
  });

  it('refuses a request without the local secret exactly as the cloud does, before any handler runs', async () => {
    const before = handlerRuns;
    const attempts: Array<Record<string, string>> = [
      {},
      { [ORIGIN_VERIFY_HEADER]: 'x'.repeat(LOCAL_SECRET.length) },
      { [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET },
    ];
    for (const headers of attempts) {
      const refused = await call(headers);
      expect(refused.statusCode).toBe(403);
      expect(JSON.parse(refused.body)).toEqual({ error: 'forbidden' });
    }
    expect(handlerRuns).toBe(before);
    expect((await call({ [ORIGIN_VERIFY_HEADER]: LOCAL_SECRET })).statusCode).toBe(200);
  });

  it('checks nothing when no local secret is configured (a handler called as a unit)', async () => {
    delete process.env.ORIGIN_SECRET;
    resetConfigForTests();
    try {
      expect((await call({})).statusCode).toBe(200);
    } finally {
      process.env.ORIGIN_SECRET = LOCAL_SECRET;
      resetConfigForTests();
    }
  });

  it('never lets a local secret into the cloud, and refuses a short one', () => {
    const cloud = { STAGE: 'cloud', SESSION_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:session' };
    expect(() => readConfig({ ...cloud, ORIGIN_SECRET: LOCAL_SECRET })).toThrow(/ORIGIN_SECRET must not be set in the cloud/);
    expect(() => readConfig({ STAGE: 'local', SESSION_SECRET: LOCAL_SECRET, ORIGIN_SECRET: 'short' })).toThrow(/at least 32 bytes/);
  });
});
