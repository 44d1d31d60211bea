import { describe, expect, it } from 'vitest';
import { PROD_THROTTLES } from '../../infra/local/api-throttle';
import { ORIGIN_VERIFY_HEADER } from '../../shared/origin-verify';
import { useApi } from '../helpers/api';

/**
 * What the front door does before the Lambdas, through the local server as in the cloud
 * (infra/edge-behaviour.ts): API Gateway's route throttles, and the origin-verify header that
 * only the CloudFront stand-in sends (docs/security.md#the-api-is-reachable-through-cloudfront-only).
 */
const RESET_REQUEST = 'POST /api/auth/password-reset/request';
const api = useApi({
  throttles: { ...PROD_THROTTLES, routes: { ...PROD_THROTTLES.routes, [RESET_REQUEST]: { rateLimit: 0, burstLimit: 2 } } },
});

describe('API Gateway route throttles', () => {
  it("answers a route over its limit with API Gateway's 429, and leaves the other routes alone", async () => {
    const client = api.client();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await client.post('/api/auth/password-reset/request', { email: `throttle-${i}@example.com` }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(answers[2].body).toEqual({ message: 'Too Many Requests' });
    expect(answers[2].headers.get('content-type')).toBe('application/json');

    expect((await client.get('/api/health')).status).toBe(200);
    const login = await client.post('/api/auth/login', { email: 'nobody@example.com', password: 'not-the-password-1' });
    expect(login.status).toBe(401);
    expect(login.body).toEqual({ error: 'invalid_credentials' });
  });
});

describe('the API behind the CloudFront stand-in only (docs/security.md#the-api-is-reachable-through-cloudfront-only)', () => {
  it('refuses a request to its own address exactly as in the cloud, and accepts the same one through the front', async () => {
    const attempts: Array<Record<string, string>> = [{}, { [ORIGIN_VERIFY_HEADER]: 'a-guess-at-the-secret-a-guess-at-the-secret' }];
    for (const headers of attempts) {
      const direct = await api.directClient().get('/api/health', headers);
      expect(direct.status).toBe(403);
      expect(direct.body).toEqual({ error: 'forbidden' });
    }
    const front = await api.client().get('/api/health');
    expect(front.status).toBe(200);
    expect(front.body).toEqual({ ok: true });
  });

  it('refuses a direct sign-in before reading it, while the front replaces a header the viewer forged', async () => {
    const credentials = { email: 'nobody@example.com', password: 'not-the-password-1' };
    const direct = await api.directClient().post('/api/auth/login', credentials);
    expect(direct.status).toBe(403);
    expect(direct.body).toEqual({ error: 'forbidden' });
    const forged = await api.client().post('/api/auth/login', credentials, { [ORIGIN_VERIFY_HEADER]: 'forged' });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ error: 'invalid_credentials' });
  });
});
