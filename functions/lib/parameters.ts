import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import type { SSMProvider } from '@aws-lambda-powertools/parameters/ssm';

/**
 * Secrets (Secrets Manager) and parameters (SSM) through Powertools Parameters: each value is
 * cached for `maxAge` seconds per warm function, so a rotation reaches every function within
 * that time without a read per request; a failed read is never cached. Callers that meet a value
 * they do not know (a token of a newer key) may force a fresh read (`forceFetch`), rate-limited
 * by themselves. Only the cloud reads here: the local runtime takes its values from the
 * environment (functions/lib/config.ts), so it runs with no AWS at all. docs/security.md.
 */
export const SECRET_MAX_AGE_SECONDS = 300;
export const PARAMETER_MAX_AGE_SECONDS = 900;

const secretsClient = new SecretsManagerClient({});
const currentSecrets = new SecretsProvider({ awsSdkV3Client: secretsClient });
// The provider's cache key is the name alone (not the version stage): the previous version of a
// secret gets a provider, and so a cache, of its own.
const previousSecrets = new SecretsProvider({ awsSdkV3Client: secretsClient });
/**
 * The SSM client and its provider are loaded on the first parameter read, not at init: the only
 * parameter (the site address) serves mail links and the Origin check of state-changing
 * requests, and its client is one of the heaviest modules of a bundle (docs/lean-builds.md#cold-start).
 */
let ssm: Promise<SSMProvider> | undefined;
// eslint-disable-next-line import-x/no-unresolved -- ./ssm-provider.ts; in a bundle, the file beside index.js (LAZY_CHUNKS)
const ssmProvider = () => (ssm ??= import('./ssm-provider.js').then(({ createSsmProvider }) => createSsmProvider()));

/** Concurrent first reads (init and the first request) share one call instead of racing. */
const inFlight = new Map<string, Promise<string | undefined>>();
function once(key: string, read: () => Promise<string | undefined>): Promise<string | undefined> {
  let pending = inFlight.get(key);
  if (!pending) {
    pending = read().finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

/** A secret's text (AWSCURRENT, or AWSPREVIOUS: undefined when there is none). */
export function readSecret(id: string, options: { previous?: boolean; forceFetch?: boolean } = {}): Promise<string | undefined> {
  const provider = options.previous ? previousSecrets : currentSecrets;
  const stage = options.previous ? 'AWSPREVIOUS' : 'AWSCURRENT';
  return once(`secret:${stage}:${id}:${Boolean(options.forceFetch)}`, async () => {
    try {
      const value = await provider.get(id, {
        maxAge: SECRET_MAX_AGE_SECONDS,
        forceFetch: options.forceFetch,
        sdkOptions: { VersionStage: stage },
      });
      return typeof value === 'string' ? value : undefined;
    } catch (error) {
      const cause = (error as { cause?: { name?: string } }).cause;
      if (options.previous && cause?.name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  });
}

/** An SSM String parameter's value. */
export function readParameter(name: string): Promise<string | undefined> {
  return once(`parameter:${name}`, async () => {
    const value = await (await ssmProvider()).get(name, { maxAge: PARAMETER_MAX_AGE_SECONDS });
    return typeof value === 'string' ? value : undefined;
  });
}

/** Tests switch secrets: forget every cached value. */
export function clearParameterCachesForTests(): void {
  currentSecrets.clearCache();
  previousSecrets.clearCache();
  ssm = undefined;
  inFlight.clear();
}
