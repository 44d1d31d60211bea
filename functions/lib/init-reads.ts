import { appUrl } from './app-url';
import { runtimeEnv } from './config';
import { keyRing } from './session-keys';

/**
 * In Lambda, starts reading the session secret (Secrets Manager) and the site URL (SSM) while
 * the function initialises, instead of on the first request that needs them: the calls run
 * while the runtime is still setting up and waiting for the first event. Both functions cache
 * their promise and forget a failure, so a failed read here is simply retried by the first
 * request (docs/lean-builds.md). Outside Lambda (local runtime, tests) it does nothing.
 */
export function readSecretsDuringInit(inLambda = runtimeEnv().inLambda): Promise<unknown> | undefined {
  if (!inLambda) return undefined;
  return Promise.allSettled([keyRing(), appUrl()]);
}
