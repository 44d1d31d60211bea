import path from 'node:path';
import { CfnOutput, Duration, Fn, SecretValue, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { EmailIdentity, type IEmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Trigger } from 'aws-cdk-lib/triggers';
import { Construct } from 'constructs';
import {
  AppFunction,
  AUTH_MEMORY_MB,
  bindAppUrl,
  bindOriginSecret,
  bindReadSesAccount,
  bindSendEmail,
  bindSessionSecret,
  bindTableAccess,
  bindUnsubscribeSecret,
  bindDeviceAuditSecret,
  REPO_ROOT,
} from './constructs/app-function';
import { ActivityStream } from './constructs/activity-stream';
import { ApiRollout, type ApiRolloutMode } from './constructs/api-rollout';
import { CostGuardrails } from './constructs/cost-guardrails';
import { CloudFrontAccessLogs } from './constructs/cloudfront-access-logs';
import { DataTable } from './constructs/data-table';
import { ExportBucket } from './constructs/export-bucket';
import { addBackgroundWorkAlarms, addScheduleHeartbeatAlarms } from './constructs/background-alarms';
import { type ApiOriginDomain, AppHttpApi } from './constructs/http-api';
import { MailEvents } from './constructs/mail-events';
import { Monitoring, reminderDrainSeconds } from './constructs/monitoring';
import { RunbookQueries } from './constructs/log-queries';
import { ProviderLogGroups } from './constructs/provider-log-groups';
import { RemindersSchedule } from './constructs/reminders-schedule';
import { DailyJobSchedule, JobDeadLetters } from './constructs/schedule-tick';
import { WorkQueue } from './constructs/work-queue';
import { type CustomDomain, Site } from './constructs/site';
import { SITE_CANARY_ALARM, SiteCanary } from './constructs/site-canary';
import { STACK_DEFAULTS } from './stack-defaults';
import { stageSettings, type StageName } from './stage';
import { type StackFunctionName, TABLE_ACCESS } from './table-access';

export interface CareerProgramStackProps extends StackProps {
  /** The built SPA; default `web/dist` (tests pass a temporary directory). */
  siteDir?: string;
  /** Sender address of every email. Required for a real deploy; the default only lets synth run. */
  mailFrom?: string;
  /** SUPPORT_EMAIL: an address a person reads (functions/lib/config.ts); unset = support@ the sender's domain. */
  supportEmail?: string;
  /** When given, SES verifies this domain (DKIM) instead of the single sender address. */
  sesDomain?: string;
  /**
   * The SES identity (sesDomain, else mailFrom) already exists in the account and region, e.g.
   * a domain verified by hand or shared by dev and prod: use it by name instead of creating it.
   */
  sesIdentityExists?: boolean;
  /** Days between soft-delete and hard-delete readiness. */
  retentionDays?: number;
  /** Comma-separated addresses: when set, email goes to these only (a staging safety net). */
  emailAllowlist?: string;
  /** `dev` (torn down whole) or `prod` (keeps data; default): infra/stage.ts. */
  stage?: StageName;
  /** Receives every alarm, page and ticket (an SNS email subscription to confirm once per topic). */
  alarmEmail?: string;
  /** Also receives the paging alarms (docs/runbook.md#severities): a pager's or on-call phone's email. */
  pageEmail?: string;
  /** Where docs/runbook.md is read; alarm descriptions link `<runbookUrl>#<section>`. */
  runbookUrl?: string;
  /** The metric name of the site's WAF web ACL: a blocked-requests alarm (see Monitoring for the region caveat). */
  webAclMetricName?: string;
  /** Percent of the SES account's send rate and 24-hour quota bulk mail (reminders) may take; 50 by default. */
  bulkSendShare?: number;
  /**
   * Percent of the SES account's send rate and 24-hour quota kept for the reserved mails (sign-in
   * codes, reset links and security notices within their daily allowances): the open mails stop
   * where it begins (docs/security.md#outbound-mail-budget); 20 by default. With `bulkSendShare`
   * below 100.
   */
  mailReservedShare?: number;
  /**
   * SES's account send rate (emails per second; the workers read the live value with GetAccount).
   * Only the alarms use it: with `bulkSendShare` it sets the reminders' drain rate; 14 by default.
   */
  sesSendRate?: number;
  /**
   * Reminders due on a busy day (daily and weekly learners): with the bulk send rate it sets how
   * long the day's queue takes to drain, and so when the reminder queue's age is late; 50 000 by default.
   */
  expectedDailyReminders?: number;
  /** Reminder workers at once (the SQS event source's maximum concurrency, at least 2); 2 by default. */
  reminderWorkers?: number;
  /** Days audit entries are kept (DynamoDB TTL); default 400 (docs/security.md#privacy-of-the-audit-log). */
  auditRetentionDays?: number;
  /** The CLOUDFRONT web ACL of the us-east-1 companion stack (infra/edge-stack.ts). */
  webAclArn?: string;
  /**
   * The site's own domain and its ACM certificate in us-east-1 (`-c domainName=… -c certificateArn=…`):
   * TLS 1.2 or later only, and the links in emails and the passkeys' origin use it (docs/runbook.md#custom-domain).
   */
  customDomain?: CustomDomain;
  /**
   * The API's own domain (`-c apiDomainName=… -c apiCertificateArn=… -c apiTruststoreUri=…
   * -c originClientCertificateArn=…`, docs/runbook.md#api-origin): CloudFront reaches the API
   * there with its client certificate (mutual TLS), and the execute-api endpoint is off.
   */
  apiCustomDomain?: ApiOriginDomain;
  /**
   * Serve the API on its execute-api address when it has no domain of its own
   * (`-c executeApiEndpoint=true|false`); default the stage's (infra/stage.ts: off in prod, on in dev).
   */
  executeApiEndpoint?: boolean;
  /**
   * Reserved concurrency of each API function (`-c apiReservedConcurrency=<n>`): while the
   * execute-api endpoint is on (dev, or `executeApiEndpoint`), calls around CloudFront are refused
   * by the origin check but still start Lambdas; a reservation keeps such a flood from taking the
   * account's concurrency from the jobs. Unset by default: a new account's small concurrency
   * quota cannot spare it (docs/runbook.md#api-origin).
   */
  apiReservedConcurrency?: number;
  /**
   * Let viewers reach the site over IPv6 too (`-c viewerIpv6=true`). Off by default: the WAF's
   * per-address rate rules count each IPv6 address apart and cannot group them by /64, so one
   * subscriber picking fresh addresses from its /64 would pass them (docs/security.md#edge-and-api-throttles).
   */
  viewerIpv6?: boolean;
  /**
   * The origin secret's version CloudFront sends (`-c originSecretVersion=<VersionId>`, docs/runbook.md
   * "Rotate the origin secret"). Unset: the current version at the first deploy.
   */
  originSecretVersion?: string;
  /** The account's monthly cost budget in US dollars (AWS Budgets, docs/runbook.md#cost-guardrails); 200 by default. */
  monthlyBudgetUsd?: number;
  /** On-demand maximum read/write request units a second of the table and of each index (infra/stack-defaults.ts). */
  tableMaxReadUnits?: number;
  tableMaxWriteUnits?: number;
  indexMaxReadUnits?: number;
  indexMaxWriteUnits?: number;
  /** CloudWatch Logs ingestion, GB an hour, whose 3-hour run raises the log-ingestion alarm; 1 by default. */
  logIngestionGbPerHour?: number;
  /**
   * How a release of the API functions takes traffic (infra/constructs/api-rollout.ts): `canary`
   * (default: 10 % for 15 minutes, rolled back on the API 5xx or the function's errors alarm) or
   * `all-at-once` (alarms not consulted: a roll back or fix while the 5xx alarm already fires,
   * docs/runbook.md#roll-back).
   */
  apiRollout?: ApiRolloutMode;
  /**
   * Addresses the site was served from before its current one, e.g. `['https://d111111abcdef8.cloudfront.net']`
   * while it moves to its own domain (docs/runbook.md#custom-domain, phase one): the API's Origin
   * check accepts them too (PREVIOUS_SITE_ORIGINS), so pages still open there keep working until
   * DNS follows. Empty by default, and again in phase two: only the site's own address.
   */
  previousSiteOrigins?: string[];
}

/** `https://host` and nothing else: the form a browser's Origin header has. */
export function checkPreviousSiteOrigins(origins: readonly string[]): string[] {
  const refused = origins.filter((origin) => {
    try {
      const url = new URL(origin);
      return url.protocol !== 'https:' || url.origin !== origin;
    } catch {
      return true;
    }
  });
  if (refused.length)
    throw new Error(
      `previousSiteOrigins must be https origins without a path or trailing slash, such as https://d111111abcdef8.cloudfront.net; got ${refused.map((origin) => `"${origin}"`).join(', ')}`,
    );
  return [...origins];
}

/**
 * The whole product in one stack: table, the three API Lambdas behind the HTTP API, the
 * CloudFront site, SES identity, session secret, daily reminders and the deploy-time seed.
 */
export class CareerProgramStack extends Stack {
  readonly data: DataTable;
  readonly functions: Record<StackFunctionName, AppFunction>;
  /** Reminder slices: queue, dead-letter queue (alarms on age and depth go on these). */
  readonly reminderQueue: WorkQueue;
  /** Hard-delete continuations: queue, dead-letter queue. */
  readonly purgeQueue: WorkQueue;
  readonly activityStream: ActivityStream;
  readonly api: AppHttpApi;
  /** The API functions' `live` aliases and their CodeDeploy canaries. */
  readonly apiRollout: ApiRollout;
  readonly site: Site;
  /** Large account exports, fetched through a presigned link (functions/lib/export-objects.ts). */
  readonly exports: ExportBucket;
  readonly sessionSecret: Secret;
  /** The key of reminder unsubscribe links (functions/lib/unsubscribe-token.ts): not the session key. */
  readonly unsubscribeSecret: Secret;
  /** The key of trusted-device cookies and audit email hashes (functions/lib/device-audit-key.ts): not the session key. */
  readonly deviceAuditSecret: Secret;
  /** The value CloudFront sends in the origin-verify header; the API checks it first. */
  readonly originSecret: Secret;
  /** CloudFront access logs without query strings, when this stack is in us-east-1 (else a companion stack). */
  readonly accessLogs?: CloudFrontAccessLogs;
  /** Created by this stack, or imported by name with `sesIdentityExists`. */
  readonly mailIdentity: IEmailIdentity;
  readonly appUrlParameter: StringParameter;
  readonly schedule: RemindersSchedule;
  readonly erasureSchedule: DailyJobSchedule;
  /** The daily reconciliation of the admin counters (functions/jobs/reconcile.ts). */
  readonly reconcileSchedule: DailyJobSchedule;
  /** Daily-job ticks that could not run (infra/constructs/schedule-tick.ts). */
  readonly jobDeadLetters: JobDeadLetters;
  readonly seedTrigger: Trigger;
  readonly mailEvents: MailEvents;
  readonly monitoring: Monitoring;
  /** The site, the API's health and an anonymous API call checked through CloudFront every 5 minutes. */
  readonly siteCanary: SiteCanary;
  /** docs/runbook.md's Logs Insights queries as saved queries (infra/constructs/log-queries.ts). */
  readonly runbookQueries: RunbookQueries;
  /** Monthly budget and log-ingestion alarm (the table's maximum throughput is in DataTable). */
  readonly costGuardrails: CostGuardrails;

  constructor(scope: Construct, id: string, props: CareerProgramStackProps = {}) {
    super(scope, id, props);
    const mailFrom = props.mailFrom ?? 'no-reply@example.com';
    const stage = stageSettings(props.stage);

    this.data = new DataTable(this, 'Data', {
      removalPolicy: stage.dataRemovalPolicy,
      deletionProtection: stage.deletionProtection,
      maxThroughput: {
        table: {
          read: props.tableMaxReadUnits ?? STACK_DEFAULTS.tableMaxReadUnits,
          write: props.tableMaxWriteUnits ?? STACK_DEFAULTS.tableMaxWriteUnits,
        },
        index: {
          read: props.indexMaxReadUnits ?? STACK_DEFAULTS.indexMaxReadUnits,
          write: props.indexMaxWriteUnits ?? STACK_DEFAULTS.indexMaxWriteUnits,
        },
      },
    });

    this.sessionSecret = new Secret(this, 'SessionSecret', {
      removalPolicy: stage.secretRemovalPolicy,
      description: 'Signing key of session tokens',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.sessionSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Session signing key, read once per cold start: an automatic rotation would sign every user out and leave warm Lambdas with the old key; it is replaced on purpose (new secret value + redeploy) if it leaks.',
    });

    this.unsubscribeSecret = new Secret(this, 'UnsubscribeSecret', {
      removalPolicy: stage.secretRemovalPolicy,
      description: 'Signing key of the unsubscribe links in reminder emails',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.unsubscribeSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Signs unsubscribe links that never expire (a reminder read weeks later must still work): rotating it would break every link already mailed. Replaced by hand if it leaks (docs/runbook.md).',
    });

    this.deviceAuditSecret = new Secret(this, 'DeviceAuditSecret', {
      removalPolicy: stage.secretRemovalPolicy,
      description: 'Key of trusted-device cookies and of the keyed email hashes in the audit log',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.deviceAuditSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Keys 90-day device cookies and audit hashes compared across the audit retention: rotating it un-trusts every device and changes every hash. Replaced by hand if it leaks (docs/runbook.md).',
    });

    this.originSecret = new Secret(this, 'OriginVerifySecret', {
      removalPolicy: stage.secretRemovalPolicy,
      description:
        'Header value CloudFront adds to API requests; the API answers nothing else (docs/security.md#the-api-is-reachable-through-cloudfront-only)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    Validations.of(this.originSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotated by hand (new value + deploy, which updates the CloudFront origin header); the API accepts the current and the previous version meanwhile (functions/lib/origin-verify.ts), so nothing is refused during the switch.',
    });

    this.mailIdentity = this.mailIdentityOf(props.sesDomain, mailFrom, props.sesIdentityExists ?? false);
    this.mailEvents = new MailEvents(this, 'MailEvents');

    // The functions learn the site URL from this parameter at run time. A fixed name lets their
    // grant be written without referencing the parameter, which depends on the distribution,
    // which depends on the API, which depends on the functions.
    const appUrlParameterName = `/${this.stackName}/app-url`;
    const appUrlParameterArn = this.formatArn({
      service: 'ssm',
      resource: 'parameter',
      resourceName: appUrlParameterName.slice(1),
    });

    const bulkSendShare = props.bulkSendShare ?? STACK_DEFAULTS.bulkSendShare;
    const mailReservedShare = props.mailReservedShare ?? STACK_DEFAULTS.mailReservedShare;
    if (bulkSendShare + mailReservedShare >= 100)
      throw new Error(`bulkSendShare (${bulkSendShare}) and mailReservedShare (${mailReservedShare}) must add up to less than 100`);
    const environment: Record<string, string> = {
      STAGE: 'cloud',
      TABLE_NAME: this.data.table.tableName,
      SESSION_SECRET_ARN: this.sessionSecret.secretArn,
      ORIGIN_SECRET_ARN: this.originSecret.secretArn,
      AUDIT_RETENTION_DAYS: String(props.auditRetentionDays ?? STACK_DEFAULTS.auditRetentionDays),
      MAIL_FROM: mailFrom,
      APP_URL_PARAMETER: appUrlParameterName,
      RETENTION_DAYS: String(props.retentionDays ?? STACK_DEFAULTS.retentionDays),
      ADMIN_PASSKEY_REQUIRED: String(stage.adminPasskeyRequired),
      SES_CONFIGURATION_SET: this.mailEvents.configurationSet.configurationSetName,
      // the shares of the SES account each class of mail may take (functions/accounts/mail-budget.ts): every function that mails
      BULK_SEND_SHARE: String(bulkSendShare),
      MAIL_RESERVED_SHARE: String(mailReservedShare),
      ...(props.emailAllowlist ? { EMAIL_ALLOWLIST: props.emailAllowlist } : {}),
      ...(props.supportEmail ? { SUPPORT_EMAIL: props.supportEmail } : {}),
    };
    const apiTimeout = Duration.seconds(STACK_DEFAULTS.apiTimeoutSeconds);
    const make = (id: string, entry: string, serviceName: string, timeout = apiTimeout, memorySize?: number, bundling?: BundlingOptions) =>
      new AppFunction(this, id, { entry, serviceName, environment, timeout, memorySize, logRetention: stage.logRetention, bundling });

    const auth = make('AuthFunction', 'functions/groups/auth.ts', 'career-program-auth', apiTimeout, AUTH_MEMORY_MB);
    const passkeys = make('PasskeysFunction', 'functions/groups/passkeys.ts', 'career-program-passkeys', apiTimeout, AUTH_MEMORY_MB);
    const learner = make('LearnerFunction', 'functions/groups/learner.ts', 'career-program-learner');
    const admin = make('AdminFunction', 'functions/groups/admin.ts', 'career-program-admin');
    // Only the API checks the Origin header: the other functions keep their versions on a move.
    const previousSiteOrigins = checkPreviousSiteOrigins(props.previousSiteOrigins ?? []);
    if (previousSiteOrigins.length)
      for (const group of [auth, passkeys, learner, admin]) group.fn.addEnvironment('PREVIOUS_SITE_ORIGINS', previousSiteOrigins.join(','));
    if (props.apiReservedConcurrency)
      for (const group of [auth, passkeys, learner, admin])
        (group.fn.node.defaultChild as CfnFunction).reservedConcurrentExecutions = props.apiReservedConcurrency;
    const reminders = make('RemindersFunction', 'functions/jobs/reminders.ts', 'career-program-reminders', Duration.minutes(5));
    const seed = make('SeedFunction', 'functions/jobs/seed.ts', 'career-program-seed', Duration.minutes(2));
    const mailEvents = make('MailEventsFunction', 'functions/jobs/ses-events.ts', 'career-program-mail-events', Duration.seconds(30));
    // Background work (docs/scale-writes.md): reminder slices and hard-delete continuations.
    const workerTimeout = Duration.minutes(STACK_DEFAULTS.workerTimeoutMinutes);
    const reminderWorker = make(
      'ReminderWorkerFunction',
      'functions/jobs/reminder-worker.ts',
      'career-program-reminder-worker',
      workerTimeout,
    );
    const purge = make('PurgeFunction', 'functions/jobs/purge.ts', 'career-program-purge', workerTimeout);
    // Daily erasure after retention (functions/jobs/erasure.ts): the same purge as the admin's hard delete.
    const erasure = make('ErasureFunction', 'functions/jobs/erasure.ts', 'career-program-erasure', workerTimeout);
    // Daily reconciliation of the admin counters with the accounts (functions/jobs/reconcile.ts).
    const reconcile = make('ReconcileFunction', 'functions/jobs/reconcile.ts', 'career-program-reconcile', workerTimeout);
    // The activity counters off the sign-in path: the table's stream → this aggregator (docs/scale-writes.md).
    const activityStream = make(
      'ActivityStreamFunction',
      'functions/jobs/activity-stream.ts',
      'career-program-activity-stream',
      Duration.minutes(1),
    );
    this.functions = {
      auth,
      passkeys,
      learner,
      admin,
      reminders,
      seed,
      mailEvents,
      reminderWorker,
      purge,
      erasure,
      reconcile,
      activityStream,
    };
    // A dead-letter target keeps failed *asynchronous* events. These functions are invoked
    // synchronously, so a failure goes back to whoever called; the async ones keep theirs
    // (mail events: MailEvents.subscribe; the daily jobs: JobDeadLetters).
    const invokedSynchronously = (fns: AppFunction[], reason: string) => {
      for (const f of fns) Validations.of(f.fn).acknowledge({ id: 'Serverless-LambdaDLQ', reason });
    };
    invokedSynchronously(
      [auth, passkeys, learner, admin],
      'Invoked synchronously by API Gateway: a failure is the 5xx answer the caller gets.',
    );
    invokedSynchronously(
      [reminderWorker, purge],
      "Invoked synchronously by its SQS event source: a message that keeps failing goes to the queue's dead-letter queue.",
    );
    invokedSynchronously(
      [activityStream],
      "Invoked synchronously by its DynamoDB stream event source: a batch that keeps failing goes to the source's on-failure queue.",
    );
    this.activityStream = new ActivityStream(this, 'ActivityStream', { table: this.data.table, aggregator: activityStream.fn });
    invokedSynchronously([seed], 'Invoked synchronously by the CloudFormation trigger: a failure fails (and rolls back) the deployment.');

    const reminderWorkers = props.reminderWorkers ?? STACK_DEFAULTS.reminderWorkers;
    this.reminderQueue = new WorkQueue(this, 'ReminderQueue', { workerTimeout });
    this.reminderQueue.attachWorker(reminderWorker.fn, reminderWorkers);
    for (const f of [reminders, reminderWorker]) this.reminderQueue.bindSend(f.fn, 'REMINDER_QUEUE_URL');
    // the workers share BULK_SEND_SHARE % of the SES account between them (functions/lib/bulk-budget.ts)
    reminderWorker.fn.addEnvironment('REMINDER_WORKERS', String(reminderWorkers));
    reminderWorker.fn.addEnvironment('SES_BULK_CONFIGURATION_SET', this.mailEvents.bulkConfigurationSet.configurationSetName);
    this.purgeQueue = new WorkQueue(this, 'PurgeQueue', { workerTimeout });
    // the admin's hard deletes and the daily erasure's purges, a few at once (docs/scale-writes.md#erasure-at-scale)
    this.purgeQueue.attachWorker(purge.fn, STACK_DEFAULTS.purgeWorkers);
    for (const f of [admin, purge, erasure]) this.purgeQueue.bindSend(f.fn, 'PURGE_QUEUE_URL');

    // What each function may do in the table: infra/table-access.ts (docs/security.md#least-privilege-in-iam).
    for (const [name, access] of Object.entries(TABLE_ACCESS)) {
      if (access) bindTableAccess(this.functions[name as StackFunctionName].fn, this.data, access);
    }
    // Learner routes mail security notices (password changed) and the account-deletion notice.
    for (const f of [auth, passkeys, learner, admin])
      bindSendEmail(f.fn, this.mailIdentity.emailIdentityArn, this.mailEvents.configurationSetArn);
    // reminders are bulk mail: their own configuration set, within the budget GetAccount gives
    bindSendEmail(reminderWorker.fn, this.mailIdentity.emailIdentityArn, this.mailEvents.bulkConfigurationSetArn);
    // the hourly job sends the security notices that had to wait (functions/accounts/deferred-notices.ts)
    bindSendEmail(reminders.fn, this.mailIdentity.emailIdentityArn, this.mailEvents.configurationSetArn);
    // the mail budgets are shares of the SES account's quota and rate, read with GetAccount (functions/accounts/mail-budget.ts)
    for (const f of [auth, passkeys, learner, admin, reminders, reminderWorker]) bindReadSesAccount(f.fn);
    for (const f of [auth, passkeys, learner, admin]) bindSessionSecret(f.fn, this.sessionSecret.secretArn);
    for (const f of [auth, passkeys, learner, admin]) bindOriginSecret(f.fn, this.originSecret.secretArn);
    for (const f of [auth, passkeys, learner, admin, reminderWorker, reminders]) bindAppUrl(f.fn, appUrlParameterArn);
    // the reminder worker signs unsubscribe links, the learner function verifies them
    for (const f of [learner, reminderWorker]) bindUnsubscribeSecret(f.fn, this.unsubscribeSecret.secretArn);
    // auth sets and checks device cookies; passkeys signs and checks the passkey notices' removal links,
    // and the hourly job signs those of the notices it sends late; auth, passkeys and learner hash the
    // key of a throttled limit for the audit log
    for (const f of [auth, passkeys, learner, reminders]) bindDeviceAuditSecret(f.fn, this.deviceAuditSecret.secretArn);

    // API Gateway invokes each API function's `live` alias, which CodeDeploy moves to a new version by a canary.
    this.apiRollout = new ApiRollout(this, 'ApiRollout', {
      functions: { auth: auth.fn, passkeys: passkeys.fn, learner: learner.fn, admin: admin.fn },
      rollout: props.apiRollout,
    });
    const live = this.apiRollout.aliases;
    this.api = new AppHttpApi(this, 'Http', {
      groups: { auth: live.auth, passkeys: live.passkeys, learner: live.learner, admin: live.admin },
      throttle: stage.apiThrottle,
      logRetention: stage.logRetention,
      customDomain: props.apiCustomDomain,
      executeApiEndpoint: props.executeApiEndpoint ?? stage.executeApiEndpoint,
    });

    this.site = new Site(this, 'Site', {
      siteDir: props.siteDir ?? path.join(REPO_ROOT, 'web', 'dist'),
      apiDomainName: this.api.originDomainName,
      apiClientCertificateArn: props.apiCustomDomain?.clientCertificateArn,
      viewerIpv6: props.viewerIpv6 ?? false,
      customDomain: props.customDomain,
      retainBucket: stage.name === 'prod',
      logRetention: stage.logRetention,
      // A dynamic reference: CloudFormation resolves it at deploy time, it is never in the template.
      // Naming the version makes a rotation a template change, so the deploy re-resolves it
      // (an unversioned reference is resolved again only when something else of the origin changes).
      originVerifyValue: SecretValue.secretsManager(this.originSecret.secretArn, {
        versionId: props.originSecretVersion,
      }).unsafeUnwrap(),
      webAclArn: props.webAclArn,
    });
    if (this.region === 'us-east-1') {
      this.accessLogs = new CloudFrontAccessLogs(this, 'CloudFrontLogs', {
        distributionArn: this.distributionArn,
        bucketArn: this.site.logBucket.bucketArn,
      });
    }
    const siteUrl = `https://${props.customDomain?.domainName ?? this.site.distribution.distributionDomainName}`;
    // "Download my data" of an account too large for one answer: an object behind a short-lived link
    this.exports = new ExportBucket(this, 'Exports', { accessLogs: this.site.logBucket, retain: stage.name === 'prod' });
    this.exports.bindExporter(learner.fn);

    this.appUrlParameter = new StringParameter(this, 'AppUrl', {
      parameterName: appUrlParameterName,
      stringValue: siteUrl,
      description: 'Public site URL (email links, Origin check)',
    });

    this.jobDeadLetters = new JobDeadLetters(this, 'JobDeadLetters');
    this.schedule = new RemindersSchedule(this, 'Reminders', { handler: reminders.fn, deadLetters: this.jobDeadLetters });
    this.erasureSchedule = new DailyJobSchedule(this, 'Erasure', {
      handler: erasure.fn,
      deadLetters: this.jobDeadLetters,
      description: 'Daily erasure of accounts past their retention period (03:00 UTC)',
      hour: 3,
      minute: 0,
    });
    this.reconcileSchedule = new DailyJobSchedule(this, 'Reconcile', {
      handler: reconcile.fn,
      deadLetters: this.jobDeadLetters,
      description: 'Daily reconciliation of the admin counters with the accounts (04:30 UTC)',
      hour: 4,
      minute: 30,
    });

    // Idempotent program-content seed, run by CloudFormation once the table exists and again
    // whenever the seed function's code (and so the bundled content) changes.
    this.seedTrigger = new Trigger(this, 'SeedTrigger', {
      handler: seed.fn,
      executeAfter: [this.data.table],
      executeOnHandlerChange: true,
      timeout: Duration.minutes(2),
    });

    // ---- Operability (docs/runbook.md): bounce handling, alarms, dashboard -------------------
    this.mailEvents.subscribe(mailEvents.fn);
    const monitored = (
      name: string,
      f: AppFunction,
      extra: { errorsRunbook?: string; errorsMeaning?: string; usesWholeBudget?: boolean } = {},
    ) => ({
      name,
      fn: f.fn,
      timeout: f.fn.timeout ?? Duration.seconds(3),
      logGroup: f.logGroup,
      ...extra,
    });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      alarmEmail: props.alarmEmail,
      pageEmail: props.pageEmail,
      runbookUrl: props.runbookUrl,
      api: this.api.api,
      apiAccessLogs: this.api.accessLogs,
      table: this.data.table,
      functions: [
        monitored('auth', auth),
        monitored('passkeys', passkeys),
        monitored('learner', learner),
        monitored('admin', admin),
        monitored('reminders', reminders, {
          errorsRunbook: 'reminders-failing',
          errorsMeaning:
            "The daily reminder schedule failed to queue the day's slices (an unhandled error or a timeout): no learner is reminded today until it runs.",
        }),
        monitored('reminderWorker', reminderWorker, {
          usesWholeBudget: true,
          errorsRunbook: 'reminders-failing',
          errorsMeaning:
            'A reminder worker failed on a slice (an unhandled error or a timeout): SQS redelivers it, and after 5 tries it lands in the dead-letter queue.',
        }),
        // a failed or timed-out purge run is retried by its queue; five failures make a dead letter
        monitored('purge', purge, {
          usesWholeBudget: true,
          errorsRunbook: 'purge-steps-failed',
          errorsMeaning:
            'The purge worker failed a run (an unhandled error or a timeout): SQS redelivers its messages, every purge step is idempotent, and a message that fails five times lands in the purge dead-letter queue.',
        }),
        monitored('erasure', erasure, {
          usesWholeBudget: true,
          errorsRunbook: 'erasure-failing',
          errorsMeaning:
            'The daily erasure job failed on at least one account (or timed out): accounts past their retention period are not being erased; they stay due and are retried the next day.',
        }),
        monitored('reconcile', reconcile, {
          usesWholeBudget: true,
          errorsRunbook: 'counter-reconciliation-failing',
          errorsMeaning:
            'The daily reconciliation of the admin counters failed or ran out of time (it then checkpoints and fails on purpose: Lambda retries it twice, each retry resuming the walk).',
        }),
        monitored('seed', seed, {
          errorsRunbook: 'seed-failed',
          errorsMeaning:
            'The deploy-time content seed (CloudFormation trigger) failed: the deployment rolls back or the program content is stale.',
        }),
        monitored('activityStream', activityStream, {
          errorsRunbook: 'activity-totals-trailing',
          errorsMeaning:
            "The activity aggregator failed on a stream batch: Lambda splits and retries it; until it succeeds the admin's active-learner figures trail.",
        }),
        monitored('mailEvents', mailEvents, {
          errorsRunbook: 'bounce-handler-errors',
          errorsMeaning:
            'The SES bounce/complaint handler failed: bounced or complaining addresses are not being marked, so reminders still go to them.',
        }),
      ],
      reminderQueue: this.reminderQueue.queue,
      reminderDeadLetterQueue: this.reminderQueue.deadLetterQueue,
      reminderDrainSeconds: reminderDrainSeconds(
        props.expectedDailyReminders ?? STACK_DEFAULTS.expectedDailyReminders,
        ((props.sesSendRate ?? STACK_DEFAULTS.sesSendRate) * bulkSendShare) / 100,
      ),
      mailEventsDeadLetterQueue: this.mailEvents.deadLetterQueue,
      mailStreams: [
        {
          name: 'Transactional',
          configurationSetName: this.mailEvents.configurationSet.configurationSetName,
          meaning: 'transactional mail (sign-in codes, resets, security notices)',
        },
        { name: 'Bulk', configurationSetName: this.mailEvents.bulkConfigurationSet.configurationSetName, meaning: 'the reminders' },
      ],
      webAclMetricName: props.webAclMetricName,
    });
    // A canary that trips the API's 5xx alarm or its function's errors alarm is rolled back.
    const monitoringAlarm = (alarmId: string) => this.monitoring.node.findChild(alarmId) as Alarm;
    for (const name of ['auth', 'passkeys', 'learner', 'admin'] as const)
      this.apiRollout.rollBackOn(
        name,
        monitoringAlarm('Api5xxRate'),
        monitoringAlarm(`${name.charAt(0).toUpperCase()}${name.slice(1)}Errors`),
      );
    addBackgroundWorkAlarms(
      {
        purgeQueue: this.purgeQueue.queue,
        purgeDeadLetterQueue: this.purgeQueue.deadLetterQueue,
        purgeWorkerTimeout: workerTimeout,
        purgeVisibilityTimeout: this.purgeQueue.visibilityTimeout,
        jobDeadLetterQueue: this.jobDeadLetters.queue,
        retentionDays: Number(environment.RETENTION_DAYS),
      },
      (alarmId, metric, spec) => this.monitoring.alarm(alarmId, metric, spec),
    );
    addScheduleHeartbeatAlarms(
      [
        { name: 'reminders', fn: reminders.fn, every: Duration.hours(1) },
        { name: 'erasure', fn: erasure.fn, every: Duration.days(1) },
        { name: 'reconcile', fn: reconcile.fn, every: Duration.days(1) },
      ],
      (alarmId, metric, spec) => this.monitoring.alarm(alarmId, metric, spec),
    );
    this.siteCanary = new SiteCanary(this, 'SiteCanary', {
      siteUrl,
      accessLogBucket: this.site.logBucket,
      retainArtifacts: stage.name === 'prod',
    });
    this.monitoring.alarm('SiteCanary', this.siteCanary.metricSuccessPercent(), SITE_CANARY_ALARM);
    // The runbook's Logs Insights queries, saved over the functions' and the API's log groups.
    this.runbookQueries = new RunbookQueries(this, 'RunbookQueries', {
      logGroups: [...Object.values(this.functions).map((f) => f.logGroup), this.api.accessLogs],
    });
    this.costGuardrails = new CostGuardrails(this, 'CostGuardrails', {
      ticketTopic: this.monitoring.topics.ticket,
      monthlyBudgetUsd: props.monthlyBudgetUsd ?? STACK_DEFAULTS.monthlyBudgetUsd,
      logIngestionGbPerHour: props.logIngestionGbPerHour ?? STACK_DEFAULTS.logIngestionGbPerHour,
      alarm: (alarmId, metric, spec) => this.monitoring.alarm(alarmId, metric, spec),
    });
    this.activityStream.addAlarms((alarmId, metric, spec) => this.monitoring.alarm(alarmId, metric, spec), activityStream.fn);
    // The Lambdas that aws-cdk-lib adds without a log group of their own get one.
    new ProviderLogGroups(this, 'ProviderLogs', { retention: stage.logRetention });

    new CfnOutput(this, 'SiteUrl', { value: siteUrl, description: 'The web application' });
    if (props.customDomain)
      new CfnOutput(this, 'SiteDnsTarget', {
        value: this.site.distribution.distributionDomainName,
        description: `DNS: point ${props.customDomain.domainName} at this host (CNAME, or an alias record in Route 53)`,
      });
    if (props.apiCustomDomain && this.api.regionalDomainName)
      new CfnOutput(this, 'ApiDnsTarget', {
        value: this.api.regionalDomainName,
        description: `DNS: point ${props.apiCustomDomain.domainName} at this host (CNAME, or an alias record in Route 53)`,
      });
    // No API URL output: the API answers only through CloudFront (docs/security.md#the-api-is-reachable-through-cloudfront-only).
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName, description: 'DynamoDB table' });
    new CfnOutput(this, 'DashboardName', {
      value: this.monitoring.dashboard.dashboardName,
      description: 'CloudWatch operations dashboard',
    });
  }

  /**
   * The SES identity mail is sent from. An existing one (a second stack in the account, a domain
   * verified by hand) cannot be created again, so it is used by name; the send grants name it
   * the same way. A domain this stack creates needs three DKIM CNAME records in its DNS zone:
   * they are outputs, `<name> CNAME <value>`.
   */
  private mailIdentityOf(sesDomain: string | undefined, mailFrom: string, exists: boolean): IEmailIdentity {
    const name = sesDomain ?? mailFrom;
    if (exists) return EmailIdentity.fromEmailIdentityName(this, 'MailIdentity', name);
    const identity = new EmailIdentity(this, 'MailIdentity', {
      identity: sesDomain ? Identity.domain(sesDomain) : Identity.email(mailFrom),
    });
    if (sesDomain) {
      const records = [
        [identity.dkimDnsTokenName1, identity.dkimDnsTokenValue1],
        [identity.dkimDnsTokenName2, identity.dkimDnsTokenValue2],
        [identity.dkimDnsTokenName3, identity.dkimDnsTokenValue3],
      ];
      records.forEach(([recordName, value], index) => {
        new CfnOutput(this, `DkimRecord${index + 1}`, {
          value: Fn.join(' ', [recordName, 'CNAME', value]),
          description: `DKIM record ${index + 1} of 3 for ${sesDomain}: add it to the domain's DNS zone`,
        });
      });
    }
    return identity;
  }

  /** arn:aws:cloudfront::<account>:distribution/<id> (CloudFront is global: no region). */
  get distributionArn(): string {
    return this.formatArn({
      service: 'cloudfront',
      region: '',
      resource: 'distribution',
      resourceName: this.site.distribution.distributionId,
    });
  }
}
