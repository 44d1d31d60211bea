import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { STAGE_API_THROTTLES, type Throttle } from './edge-behaviour';

/**
 * Deployment stages (`npx cdk deploy --all -c stage=dev|prod`, docs/runbook.md "Deploy").
 *
 * prod keeps what cannot be rebuilt: the table (accounts, progress, audit), the site bucket and
 * the secrets survive a stack deletion, the table and the stacks refuse deletion, the API is sized for real traffic and
 * logs are kept longer. dev can be torn down completely with `cdk destroy --all -c stage=dev`.
 */
export type StageName = 'dev' | 'prod';

export interface StageSettings {
  name: StageName;
  /** Table and site bucket on stack deletion. */
  dataRemovalPolicy: RemovalPolicy;
  /** DynamoDB deletion protection. */
  deletionProtection: boolean;
  /** CloudFormation termination protection of every stack of the stage. */
  terminationProtection: boolean;
  /** The session, unsubscribe and origin secrets on stack deletion: kept in prod (mailed links and sessions stay valid after a re-create). */
  secretRemovalPolicy: RemovalPolicy;
  /** HTTP API default route ceiling (requests per second, burst); per-user and per-IP limits live in the handlers. */
  apiThrottle: Throttle;
  /** Every log group of the stack. */
  logRetention: RetentionDays;
  /**
   * Whether the HTTP API may serve on its default execute-api address when it has no domain of its
   * own (`-c executeApiEndpoint=true|false` overrides). Off in prod: that address takes calls
   * around CloudFront and its WAF, which spend the routes' shared throttles
   * (docs/security.md#the-api-is-reachable-through-cloudfront-only), so prod serves the API on its
   * own domain behind origin mTLS. On in dev, a stack nobody depends on, deployable without a domain.
   */
  executeApiEndpoint: boolean;
  /**
   * Administrators sign in with a passkey only (ADMIN_PASSKEY_REQUIRED, functions/lib/config.ts):
   * their password and emailed code open no session (docs/security.md#administrators-sign-in-with-a-passkey).
   */
  adminPasskeyRequired: boolean;
}

export const STAGES: Record<StageName, StageSettings> = {
  prod: {
    name: 'prod',
    dataRemovalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    terminationProtection: true,
    secretRemovalPolicy: RemovalPolicy.RETAIN,
    // Sized for a million learners (docs/security.md#edge-and-api-throttles); the sign-in routes have tighter
    // per-route ceilings. Both in infra/edge-behaviour.ts, which the local server applies too.
    apiThrottle: STAGE_API_THROTTLES.prod,
    logRetention: RetentionDays.THREE_MONTHS,
    executeApiEndpoint: false,
    adminPasskeyRequired: true,
  },
  dev: {
    name: 'dev',
    dataRemovalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    terminationProtection: false,
    secretRemovalPolicy: RemovalPolicy.DESTROY,
    apiThrottle: STAGE_API_THROTTLES.dev,
    logRetention: RetentionDays.TWO_WEEKS,
    executeApiEndpoint: true,
    adminPasskeyRequired: false,
  },
};

/** The settings of `-c stage=…`; prod when unset, so a bare deploy never risks data. */
export function stageSettings(value: string | undefined): StageSettings {
  const name = value ?? 'prod';
  if (name !== 'dev' && name !== 'prod') throw new Error(`stage must be "dev" or "prod", got "${name}"`);
  return STAGES[name];
}
