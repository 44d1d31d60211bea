import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTE_THROTTLES, STAGE_API_THROTTLES } from '../edge-behaviour';
import { apiThrottle, PROD_THROTTLES } from './api-throttle';

/** API Gateway's throttles as the local server applies them: one token bucket per route. */
describe('the local API Gateway throttle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const limits = { stage: { rateLimit: 10, burstLimit: 20 }, routes: { 'POST /api/auth/login': { rateLimit: 2, burstLimit: 3 } } };
  const admitted = (allow: (key: string) => boolean, key: string, count: number) =>
    Array.from({ length: count }, () => allow(key)).filter(Boolean).length;

  it('lets a whole burst through at once, then refuses', () => {
    const allow = apiThrottle(limits);
    expect(admitted(allow, 'POST /api/auth/login', 3)).toBe(3);
    expect(allow('POST /api/auth/login')).toBe(false);
  });

  it('refills at the rate per second, never above the burst', () => {
    const allow = apiThrottle(limits);
    admitted(allow, 'POST /api/auth/login', 3);
    vi.advanceTimersByTime(500);
    expect(admitted(allow, 'POST /api/auth/login', 5)).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(admitted(allow, 'POST /api/auth/login', 10)).toBe(3);
  });

  it("gives each route its own bucket, with the stage's default for a route without its own limit", () => {
    const allow = apiThrottle(limits);
    admitted(allow, 'POST /api/auth/login', 3);
    expect(admitted(allow, 'GET /api/auth/me', 25)).toBe(20);
    expect(admitted(allow, 'GET /api/dashboard/state', 25)).toBe(20);
    expect(allow('POST /api/auth/login')).toBe(false);
  });

  it('refuses every request on a route whose burst is 0, and never refills one whose rate is 0', () => {
    const allow = apiThrottle({ stage: { rateLimit: 5, burstLimit: 0 }, routes: { 'GET /api/auth/me': { rateLimit: 0, burstLimit: 2 } } });
    vi.advanceTimersByTime(10_000);
    expect(allow('GET /api/health')).toBe(false);
    expect(admitted(allow, 'GET /api/auth/me', 3)).toBe(2);
    vi.advanceTimersByTime(60_000);
    expect(allow('GET /api/auth/me')).toBe(false);
  });

  it('defaults to the deployed prod stage and routes', () => {
    expect(PROD_THROTTLES).toEqual({ stage: STAGE_API_THROTTLES.prod, routes: ROUTE_THROTTLES });
    const allow = apiThrottle(PROD_THROTTLES);
    const reset = 'POST /api/auth/password-reset/request';
    expect(admitted(allow, reset, ROUTE_THROTTLES[reset].burstLimit + 5)).toBe(ROUTE_THROTTLES[reset].burstLimit);
  });
});
