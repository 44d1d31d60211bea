import { ROUTE_THROTTLES, STAGE_API_THROTTLES, type Throttle } from '../edge-behaviour';

/** The limits API Gateway applies: the stage's default route throttle and the per-route ones. */
export interface ApiThrottles {
  stage: Throttle;
  routes: Record<string, Throttle>;
}

/** The deployed prod stage's limits, from the definitions the stack is built from. */
export const PROD_THROTTLES: ApiThrottles = { stage: STAGE_API_THROTTLES.prod, routes: ROUTE_THROTTLES };

/**
 * API Gateway's token bucket: it holds `burstLimit` tokens, starts full and refills at
 * `rateLimit` a second; a request takes one or is throttled. A burst of 0 refuses everything,
 * a rate of 0 never refills. (The `limiter` package starts its buckets empty, reads a size of 0
 * as "no limit" and a rate of 0 as "always full", so it would need a workaround for each.)
 */
class TokenBucket {
  private tokens: number;
  private updatedAt = performance.now();

  constructor(private readonly limit: Throttle) {
    this.tokens = limit.burstLimit;
  }

  take(): boolean {
    const now = performance.now();
    this.tokens = Math.min(this.limit.burstLimit, this.tokens + ((now - this.updatedAt) / 1000) * this.limit.rateLimit);
    this.updatedAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * One bucket per route: a route's own throttle when it has one, else the stage's default (the
 * stage setting is each route's default, not a total over the stage).
 */
export function apiThrottle(limits: ApiThrottles): (routeKey: string) => boolean {
  const buckets = new Map<string, TokenBucket>();
  return (routeKey) => {
    let bucket = buckets.get(routeKey);
    if (!bucket) {
      bucket = new TokenBucket(limits.routes[routeKey] ?? limits.stage);
      buckets.set(routeKey, bucket);
    }
    return bucket.take();
  };
}
