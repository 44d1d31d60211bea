/**
 * Environment, read and checked once per cold start. Every other module takes its settings from
 * here, so a missing or malformed variable fails at start, not halfway through a request.
 */
export interface Config {
  tableName: string;
  /**
   * AWS_REGION / AWS_DEFAULT_REGION when set. Otherwise unset, so the SDK resolves it as the AWS
   * CLI does (the profile's region in ~/.aws/config): an operator script acts on the region its
   * credentials name. Only a local endpoint (DynamoDB Local, the SES sink) gets a fixed region,
   * since the SDK refuses to sign without one.
   */
  region?: string;
  dynamodbEndpoint?: string;
  sesEndpoint?: string;
  mailFrom: string;
  /**
   * Where a person can write to a human (SUPPORT_EMAIL): the Reply-To of mail that invites an
   * answer (the account deletion confirmation). Unset = support@ the sender's domain.
   */
  supportEmail: string;
  /** Local default only: use `appUrl()` from app-url.ts, which also works in the cloud. */
  appUrl: string;
  /** Cloud: the SSM parameter holding the site address (only when APP_URL is not set). */
  appUrlParameter?: string;
  /**
   * Origins the site was served from before its current address (PREVIOUS_SITE_ORIGINS,
   * comma-separated, e.g. `https://d111111abcdef8.cloudfront.net`): while the site moves to a
   * domain of its own, pages still open on the old address keep working, since the Origin check
   * accepts these too (docs/runbook.md#custom-domain). Empty once the move is over.
   */
  previousSiteOrigins: string[];
  /** Local development secret; in the cloud the secret comes from Secrets Manager. */
  sessionSecret?: string;
  /** Local only: older signing keys that still verify (comma-separated SESSION_SECRET_PREVIOUS). */
  sessionSecretPrevious: string[];
  sessionSecretArn?: string;
  /** Days an audit entry is kept (DynamoDB TTL); docs/security.md#privacy-of-the-audit-log. */
  auditRetentionDays: number;
  /** Cloud: the secret whose value CloudFront sends as the origin-verify header (docs/security.md#the-api-is-reachable-through-cloudfront-only). */
  originSecretArn?: string;
  /**
   * Local: the value the local CloudFront sends as the origin-verify header (ORIGIN_SECRET; the
   * local runtime generates one). Unset locally, nothing is checked; never read in the cloud.
   */
  originSecret?: string;
  /** scrypt cost exponent; 17 (N = 2^17) in production, tests may lower it. */
  passwordHashLog2N: number;
  retentionDays: number;
  emailAllowlist?: string[];
  /** True when mail goes to the local SES sink (aws-ses-v2-local). */
  localMail: boolean;
  stage: 'local' | 'cloud';
  /** WebAuthn relying party id (a host name); unset = the host of the app URL. */
  webauthnRpId?: string;
  /** WebAuthn expected origin; unset = the origin of the app URL. */
  webauthnOrigin?: string;
  /** SES configuration set of transactional mail: its event destination reports bounces and complaints (docs/runbook.md). */
  sesConfigurationSet?: string;
  /** SES configuration set of bulk mail (reminders): the same events, reputation figures of their own. */
  sesBulkConfigurationSet?: string;
  /** SQS queue of hard-delete continuations (unset locally: the local runtime runs them in-process). */
  purgeQueueUrl?: string;
  /** SQS queue of reminder shard work (unset locally: in-process, functions/lib/queue.ts). */
  reminderQueueUrl?: string;
  /** Percent of SES's account send rate and 24-hour quota bulk mail may take (50 by default); the rest is kept for transactional mail. */
  bulkSendShare: number;
  /**
   * Percent of SES's account send rate and 24-hour quota kept for the reserved mails (MAIL_RESERVED_SHARE,
   * 20 by default): sign-in codes, reset links and security notices within their accounts' daily
   * allowances (docs/security.md#outbound-mail-budget). The open mails (verification codes, mails
   * beyond an allowance) stop where this share begins, bulk mail at `bulkSendShare`; the two
   * together stay below 100, so the open mails keep a share of the rate too.
   */
  mailReservedShare: number;
  /** Reminder workers running at once (the SQS event source's maximum concurrency). */
  reminderWorkers: number;
  /** Local: the key of unsubscribe links (UNSUBSCRIBE_SECRET; unset = derived from SESSION_SECRET). */
  unsubscribeSecret?: string;
  /** Cloud: the secret holding the key of unsubscribe links (functions/lib/unsubscribe-token.ts). */
  unsubscribeSecretArn?: string;
  /** Local: the key of trusted-device cookies and audit email hashes (DEVICE_AUDIT_SECRET; unset = derived from SESSION_SECRET). */
  deviceAuditSecret?: string;
  /** Cloud: the secret holding that key (functions/lib/device-audit-key.ts). */
  deviceAuditSecretArn?: string;
  /** Cloud: the bucket of large account exports (functions/lib/export-objects.ts); unset locally (a local file instead). */
  exportBucket?: string;
  /**
   * Largest account export answered in the API's answer itself (EXPORT_INLINE_MAX_BYTES, JSON
   * bytes); a larger one, or one whose audit history needs more than one answer, is written to
   * an object and answered as a short-lived link. Below Lambda's 6 MB answer limit.
   */
  exportInlineMaxBytes: number;
  /**
   * Administrators sign in with a passkey only (ADMIN_PASSKEY_REQUIRED, `true` or `false`; on in
   * prod, off in dev and locally by default, infra/stage.ts): their password and emailed code open
   * no session, unless an operator opened one such sign-in (docs/security.md#administrators-sign-in-with-a-passkey).
   */
  adminPasskeyRequired: boolean;
}

function boolFrom(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new Error(`${name} must be "true" or "false", got "${value}"`);
}

/** Comma-separated origins (`scheme://host[:port]`, nothing after): anything else fails at start. */
function originsFrom(value: string | undefined, name: string): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol))
      throw new Error(`${name} must list origins such as https://d111111abcdef8.cloudfront.net, got "${origin}"`);
  }
  return origins;
}

function intFrom(value: string | undefined, fallback: number, name: string, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return parsed;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const stage = env.STAGE === 'cloud' ? 'cloud' : 'local';
  const sessionSecretArn = env.SESSION_SECRET_ARN || undefined;
  const sessionSecret = env.SESSION_SECRET || undefined;
  if (stage === 'cloud' && !sessionSecretArn) throw new Error('SESSION_SECRET_ARN is required in the cloud');
  if (stage === 'local' && !sessionSecret && !sessionSecretArn) throw new Error('SESSION_SECRET is required locally');
  // In the cloud the signing key comes from Secrets Manager only: never from a readable variable.
  if (stage === 'cloud' && sessionSecret)
    throw new Error('SESSION_SECRET must not be set in the cloud (the key comes from Secrets Manager)');
  if (sessionSecret && Buffer.byteLength(sessionSecret) < 32) throw new Error('SESSION_SECRET must be at least 32 bytes');
  const originSecret = env.ORIGIN_SECRET || undefined;
  // In the cloud only CloudFront's Secrets Manager value opens the API: a local value must never do.
  if (stage === 'cloud' && originSecret)
    throw new Error('ORIGIN_SECRET must not be set in the cloud (the value comes from Secrets Manager)');
  if (originSecret && Buffer.byteLength(originSecret) < 32) throw new Error('ORIGIN_SECRET must be at least 32 bytes');
  const bulkSendShare = intFrom(env.BULK_SEND_SHARE, 50, 'BULK_SEND_SHARE', 1, 100);
  const mailReservedShare = intFrom(env.MAIL_RESERVED_SHARE, 20, 'MAIL_RESERVED_SHARE', 1, 90);
  // bulk yields before the open mails, which yield before the reserved ones: the shares must leave room between them
  if (bulkSendShare + mailReservedShare >= 100)
    throw new Error(`BULK_SEND_SHARE (${bulkSendShare}) and MAIL_RESERVED_SHARE (${mailReservedShare}) must add up to less than 100`);
  return {
    tableName: env.TABLE_NAME || 'career-program',
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || (env.DYNAMODB_ENDPOINT || env.SES_ENDPOINT ? 'us-east-1' : undefined),
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    sesEndpoint: env.SES_ENDPOINT || undefined,
    mailFrom: env.MAIL_FROM || 'no-reply@career-program.local',
    supportEmail: env.SUPPORT_EMAIL || `support@${/@([^>\s]+)/.exec(env.MAIL_FROM ?? '')?.[1] ?? 'career-program.local'}`,
    appUrl: (env.APP_URL || 'http://localhost:3000').replace(/\/$/, ''),
    appUrlParameter: env.APP_URL ? undefined : env.APP_URL_PARAMETER || undefined,
    previousSiteOrigins: originsFrom(env.PREVIOUS_SITE_ORIGINS, 'PREVIOUS_SITE_ORIGINS'),
    sessionSecret,
    sessionSecretPrevious: (env.SESSION_SECRET_PREVIOUS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    sessionSecretArn,
    auditRetentionDays: intFrom(env.AUDIT_RETENTION_DAYS, 400, 'AUDIT_RETENTION_DAYS', 1, 3650),
    originSecretArn: env.ORIGIN_SECRET_ARN || undefined,
    originSecret,
    passwordHashLog2N: intFrom(env.PASSWORD_HASH_LOG2N, 17, 'PASSWORD_HASH_LOG2N', 10, 20),
    retentionDays: intFrom(env.RETENTION_DAYS, 30, 'RETENTION_DAYS', 0, 3650),
    emailAllowlist: env.EMAIL_ALLOWLIST
      ? env.EMAIL_ALLOWLIST.split(',')
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean)
      : undefined,
    localMail: Boolean(env.SES_ENDPOINT) && stage === 'local',
    stage,
    webauthnRpId: env.WEBAUTHN_RP_ID || undefined,
    webauthnOrigin: env.WEBAUTHN_ORIGIN ? env.WEBAUTHN_ORIGIN.replace(/\/$/, '') : undefined,
    sesConfigurationSet: env.SES_CONFIGURATION_SET || undefined,
    sesBulkConfigurationSet: env.SES_BULK_CONFIGURATION_SET || undefined,
    purgeQueueUrl: env.PURGE_QUEUE_URL || undefined,
    reminderQueueUrl: env.REMINDER_QUEUE_URL || undefined,
    bulkSendShare,
    mailReservedShare,
    reminderWorkers: intFrom(env.REMINDER_WORKERS, 2, 'REMINDER_WORKERS', 1, 1000),
    unsubscribeSecret: stage === 'local' ? env.UNSUBSCRIBE_SECRET || undefined : undefined,
    unsubscribeSecretArn: env.UNSUBSCRIBE_SECRET_ARN || undefined,
    deviceAuditSecret: stage === 'local' ? env.DEVICE_AUDIT_SECRET || undefined : undefined,
    deviceAuditSecretArn: env.DEVICE_AUDIT_SECRET_ARN || undefined,
    exportBucket: env.EXPORT_BUCKET || undefined,
    exportInlineMaxBytes: intFrom(env.EXPORT_INLINE_MAX_BYTES, 4_000_000, 'EXPORT_INLINE_MAX_BYTES', 1_000, 5_000_000),
    adminPasskeyRequired: boolFrom(env.ADMIN_PASSKEY_REQUIRED, false, 'ADMIN_PASSKEY_REQUIRED'),
  };
}

let cached: Config | undefined;
/** The process-wide configuration (read on first use, then kept). */
export function config(): Config {
  cached ??= readConfig();
  return cached;
}
/** Tests that change the environment call this to re-read it. */
export function resetConfigForTests(): void {
  cached = undefined;
}

type LogLevel = 'INFO' | 'DEBUG' | 'WARN' | 'ERROR' | 'SILENT';

/**
 * What the logger, metrics and init reads need: read without the checks of `readConfig`, since
 * they start at import, before a configuration error could be reported through them.
 */
export function runtimeEnv(env: NodeJS.ProcessEnv = process.env) {
  return {
    serviceName: env.POWERTOOLS_SERVICE_NAME ?? 'career-program',
    logLevel: (env.LOG_LEVEL as LogLevel | undefined) ?? 'INFO',
    /** Running as a Lambda function (not the local runtime or a test). */
    inLambda: Boolean(env.AWS_LAMBDA_FUNCTION_NAME),
  };
}

/** Metrics are off outside the cloud (local runtime, tests) unless POWERTOOLS_METRICS_DISABLED says otherwise. */
export function disableMetricsOutsideCloud(env: NodeJS.ProcessEnv = process.env): void {
  if (env.STAGE !== 'cloud' && env.POWERTOOLS_METRICS_DISABLED === undefined) env.POWERTOOLS_METRICS_DISABLED = 'true';
}
