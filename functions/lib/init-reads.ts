import { runtimeEnv } from './config';
import { keyRing } from './session-keys';

/**
 * In Lambda, starts reading the session secret (Secrets Manager) while the function initialises,
 * instead of on the first request that needs it: the call runs while the runtime is still
 * setting up and waiting for the first event. `keyRing` caches its promise and forgets a
 * failure, so a failed read here is simply retried by the first request. The site address (SSM)
 * is not read here: only mail and the Origin check of state-changing requests need it, and its
 * client stays out of the cold start (docs/lean-builds.md#cold-start). Outside Lambda (local
 * runtime, tests) it does nothing.
 */
export function readSecretsDuringInit(inLambda = runtimeEnv().inLambda): Promise<unknown> | undefined {
  if (!inLambda) return undefined;
  return Promise.allSettled([keyRing()]);
}
