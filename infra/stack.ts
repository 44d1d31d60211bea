import path from 'node:path';
import { CfnOutput, Duration, Fn, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { Trigger } from 'aws-cdk-lib/triggers';
import { Construct } from 'constructs';
import type { RouteGroup } from '../shared/routes';
import { AppFunction, bindAppUrl, bindOriginSecret, bindSendEmail, bindSessionSecret, bindTableAccess, REPO_ROOT } from './constructs/app-function';
import { CloudFrontAccessLogs } from './constructs/cloudfront-access-logs';
import { DataTable } from './constructs/data-table';
import { AppHttpApi } from './constructs/http-api';
import { RemindersSchedule } from './constructs/reminders-schedule';
import { Site } from './constructs/site';

export interface CareerProgramStackProps extends StackProps {
  /** The built SPA; default `web/dist` (tests pass a temporary directory). */
  siteDir?: string;
  /** Sender address of every email. Required for a real deploy; the default only lets synth run. */
  mailFrom?: string;
  /** When given, SES verifies this domain (DKIM) instead of the single sender address. */
  sesDomain?: string;
  /** Days between soft-delete and hard-delete readiness. */
  retentionDays?: number;
  /** Comma-separated addresses: when set, email goes to these only (a staging safety net). */
  emailAllowlist?: string;
  /** Days audit entries are kept (DynamoDB TTL); default 400 (docs/security.md L9). */
  auditRetentionDays?: number;
  /** The CLOUDFRONT web ACL of the us-east-1 companion stack (infra/edge-stack.ts). */
  webAclArn?: string;
}

/**
 * The whole product in one stack: table, the three API Lambdas behind the HTTP API, the
 * CloudFront site, SES identity, session secret, daily reminders and the deploy-time seed.
 */
export class CareerProgramStack extends Stack {
  readonly data: DataTable;
  readonly functions: Record<RouteGroup | 'reminders' | 'seed', AppFunction>;
  readonly api: AppHttpApi;
  readonly site: Site;
  readonly sessionSecret: Secret;
  /** H1: the value CloudFront sends in the origin-verify header; the API checks it first. */
  readonly originSecret: Secret;
  /** CloudFront access logs without query strings, when this stack is in us-east-1 (else a companion stack). */
  readonly accessLogs?: CloudFrontAccessLogs;
  readonly mailIdentity: EmailIdentity;
  readonly appUrlParameter: StringParameter;
  readonly schedule: RemindersSchedule;
  readonly seedTrigger: Trigger;

  constructor(scope: Construct, id: string, props: CareerProgramStackProps = {}) {
    super(scope, id, props);
    const mailFrom = props.mailFrom ?? 'no-reply@example.com';

    this.data = new DataTable(this, 'Data');

    this.sessionSecret = new Secret(this, 'SessionSecret', {
      description: 'Signing key of session tokens',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.sessionSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Session signing key, read once per cold start: an automatic rotation would sign every user out and leave warm Lambdas with the old key; it is replaced on purpose (new secret value + redeploy) if it leaks.',
    });

    this.originSecret = new Secret(this, 'OriginVerifySecret', {
      description: 'Header value CloudFront adds to API requests; the API answers nothing else (H1)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    Validations.of(this.originSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotated by hand (new value + deploy, which updates the CloudFront origin header); the API accepts the current and the previous version meanwhile (functions/lib/origin-verify.ts), so nothing is refused during the switch.',
    });

    this.mailIdentity = new EmailIdentity(this, 'MailIdentity', {
      identity: props.sesDomain ? Identity.domain(props.sesDomain) : Identity.email(mailFrom),
    });

    // The functions learn the site URL from this parameter at run time. A fixed name lets their
    // grant be written without referencing the parameter, which depends on the distribution,
    // which depends on the API, which depends on the functions.
    const appUrlParameterName = `/${this.stackName}/app-url`;
    const appUrlParameterArn = this.formatArn({
      service: 'ssm',
      resource: 'parameter',
      resourceName: appUrlParameterName.slice(1),
    });

    const environment: Record<string, string> = {
      STAGE: 'cloud',
      TABLE_NAME: this.data.table.tableName,
      SESSION_SECRET_ARN: this.sessionSecret.secretArn,
      ORIGIN_SECRET_ARN: this.originSecret.secretArn,
      AUDIT_RETENTION_DAYS: String(props.auditRetentionDays ?? 400),
      MAIL_FROM: mailFrom,
      APP_URL_PARAMETER: appUrlParameterName,
      RETENTION_DAYS: String(props.retentionDays ?? 30),
      ...(props.emailAllowlist ? { EMAIL_ALLOWLIST: props.emailAllowlist } : {}),
    };
    const make = (id: string, entry: string, serviceName: string, timeout = Duration.seconds(10)) =>
      new AppFunction(this, id, { entry, serviceName, environment, timeout });

    const auth = make('AuthFunction', 'functions/groups/auth.ts', 'career-program-auth');
    const learner = make('LearnerFunction', 'functions/groups/learner.ts', 'career-program-learner');
    const admin = make('AdminFunction', 'functions/groups/admin.ts', 'career-program-admin');
    const reminders = make('RemindersFunction', 'functions/jobs/reminders.ts', 'career-program-reminders', Duration.minutes(5));
    const seed = make('SeedFunction', 'functions/jobs/seed.ts', 'career-program-seed', Duration.minutes(2));
    this.functions = { auth, learner, admin, reminders, seed };

    // What each function may touch (L7, docs/security.md), by key prefix of functions/lib/table.ts.
    // Learner routes send no email; the seed only writes content.
    const arns = this.data.resourceArns;
    bindTableAccess(auth.fn, arns, {
      write: ['USER#', 'EMAIL#', 'USERSEARCH#', 'CHALLENGE#', 'RESET#', 'RATE#', 'ACTIVITY#', 'STATS#'],
      audit: true,
      describe: true, // GET /api/health
    });
    bindTableAccess(learner.fn, arns, { write: ['USER#', 'RATE#', 'ACTIVITY#', 'STATS#'], read: ['PROGRAM#'], audit: true });
    // The admin function runs the hard delete, which anonymises audit entries: the audit writer.
    bindTableAccess(admin.fn, arns, {
      write: ['USER#', 'EMAIL#', 'USERSEARCH#', 'RESET#', 'RATE#', 'ACTIVITY#', 'STATS#'],
      read: ['PROGRAM#'],
      queryIndexes: true,
      auditWriter: true,
    });
    bindTableAccess(reminders.fn, arns, { write: ['USER#'], read: ['PROGRAM#', 'STATS#'], queryIndexes: true });
    bindTableAccess(seed.fn, arns, { write: ['PROGRAM#'] });
    for (const f of [auth, admin, reminders]) bindSendEmail(f.fn, this.mailIdentity.emailIdentityArn);
    for (const f of [auth, learner, admin]) bindSessionSecret(f.fn, this.sessionSecret.secretArn);
    for (const f of [auth, learner, admin]) bindOriginSecret(f.fn, this.originSecret.secretArn);
    for (const f of [auth, learner, admin, reminders]) bindAppUrl(f.fn, appUrlParameterArn);

    this.api = new AppHttpApi(this, 'Http', { groups: { auth: auth.fn, learner: learner.fn, admin: admin.fn } });

    this.site = new Site(this, 'Site', {
      siteDir: props.siteDir ?? path.join(REPO_ROOT, 'web', 'dist'),
      // apiEndpoint is https://<id>.execute-api.<region>.amazonaws.com: the origin wants the host alone.
      apiDomainName: Fn.select(2, Fn.split('/', this.api.api.apiEndpoint)),
      // A dynamic reference: CloudFormation resolves it at deploy time, it is never in the template.
      originVerifyValue: this.originSecret.secretValue.unsafeUnwrap(),
      webAclArn: props.webAclArn,
    });
    if (this.region === 'us-east-1') {
      this.accessLogs = new CloudFrontAccessLogs(this, 'CloudFrontLogs', {
        distributionArn: this.distributionArn,
        bucketArn: this.site.logBucket.bucketArn,
      });
    }
    const siteUrl = `https://${this.site.distribution.distributionDomainName}`;

    this.appUrlParameter = new StringParameter(this, 'AppUrl', {
      parameterName: appUrlParameterName,
      stringValue: siteUrl,
      description: 'Public site URL (email links, Origin check)',
    });

    this.schedule = new RemindersSchedule(this, 'Reminders', { handler: reminders.fn });

    // Idempotent program-content seed, run by CloudFormation once the table exists and again
    // whenever the seed function's code (and so the bundled content) changes.
    this.seedTrigger = new Trigger(this, 'SeedTrigger', {
      handler: seed.fn,
      executeAfter: [this.data.table],
      executeOnHandlerChange: true,
      timeout: Duration.minutes(2),
    });

    new CfnOutput(this, 'SiteUrl', { value: siteUrl, description: 'The web application' });
    // No API URL output: the API answers only through CloudFront (H1, docs/security.md).
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName, description: 'DynamoDB table' });
  }

  /** arn:aws:cloudfront::<account>:distribution/<id> (CloudFront is global: no region). */
  get distributionArn(): string {
    return this.formatArn({ service: 'cloudfront', region: '', resource: 'distribution', resourceName: this.site.distribution.distributionId });
  }
}
