import path from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { PK, type IndexName, type PartitionPrefix } from '../../functions/lib/table';
import { LEAN_BUNDLING, REPO_ROOT, reusableBundle } from './bundling';

export { LAZY_CHUNKS, LEAN_BUNDLING, REPO_ROOT } from './bundling';

export interface AppFunctionProps {
  /** Entry file relative to the repository root, e.g. `functions/groups/auth.ts` (exports `handler`). */
  entry: string;
  /** Powertools service name (log field `service`). */
  serviceName: string;
  /** Variables every function shares (table, secret, mail sender …). */
  environment: Record<string, string>;
  description?: string;
  /**
   * Default 1024 MB: scrypt at N = 2^17 needs 128 MB of its own and the CPU that comes with
   * memory. The auth function, which hashes on every login and registration, gets
   * AUTH_MEMORY_MB (one full vCPU).
   */
  memorySize?: number;
  timeout?: Duration;
  /** Log retention; default one month (infra/stage.ts sets it per stage). */
  logRetention?: RetentionDays;
  /** Bundling for this function; default LEAN_BUNDLING. */
  bundling?: BundlingOptions;
}

/** Lambda gives one full vCPU at 1,769 MB: scrypt (CPU-bound) runs at full speed from there. */
export const AUTH_MEMORY_MB = 1769;

/**
 * One Lambda function with the project defaults: Node.js 22 on arm64, bundled locally by esbuild
 * (no Docker) with LEAN_BUNDLING, its own log group with a retention, and a role that
 * starts with nothing but writing to that log group. Everything else is granted by the `bind*`
 * helpers below, each naming exact resources.
 */
export class AppFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Our own role instead of the default one: the default attaches the AWS managed
    // AWSLambdaBasicExecutionRole, which may write to any log group in the account.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(role);

    this.fn = new NodejsFunction(this, 'Function', {
      entry: path.join(REPO_ROOT, props.entry),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(10),
      description: props.description,
      role,
      logGroup: this.logGroup,
      // X-Ray by the runtime, without the Powertools Tracer SDK in the bundle (docs/runbook.md
      // "Tracing": measured sizes and what the trade-off costs).
      tracing: Tracing.ACTIVE,
      environment: {
        ...props.environment,
        POWERTOOLS_SERVICE_NAME: props.serviceName,
      },
      bundling: { ...(props.bundling ?? LEAN_BUNDLING), ...reusableBundle(props.entry) },
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing: Lambda adds xray:PutTraceSegments and xray:PutTelemetryRecords, which X-Ray does not scope to a resource. Every other grant (bind* helpers) names exact ARNs.',
    });
    const pinned =
      'Pinned to Node.js 22, the runtime the code is bundled for (target node22) and tested on; moved on deliberately, not by a nag.';
    Validations.of(this.fn).acknowledge(
      { id: 'AwsSolutions-L1', reason: pinned },
      { id: 'Serverless-LambdaLatestVersion', reason: pinned },
    );
  }
}

/**
 * Grants that AWS uses with a function's role rather than the function's code, so no local call
 * ever exercises them (the local IAM twin's grants report, infra/local/iam/grants-report.ts,
 * accepts them for these reasons and nothing else).
 */
export const GRANTS_USED_BY_AWS: ReadonlyArray<{
  actions: string[];
  functions?: string[];
  /** Not on the work queues the code itself sends to (the purge and reminder queues). */
  notOnWorkQueues?: boolean;
  reason: string;
}> = [
  { actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], reason: "the Lambda runtime writes the function's logs to its log group" },
  { actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], reason: 'the Lambda runtime sends the active-tracing segments' },
  {
    actions: ['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:GetQueueUrl', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'],
    functions: ['reminderWorker', 'purge'],
    reason: "the SQS event source mapping polls the worker's queue with the worker's role",
  },
  {
    actions: ['sqs:SendMessage'],
    functions: ['mailEvents', 'reminders', 'erasure', 'reconcile'],
    notOnWorkQueues: true,
    reason: "Lambda sends an event that failed its retries to the function's dead-letter queue with the function's role",
  },
  {
    actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
    functions: ['activityStream'],
    reason: "the DynamoDB stream event source mapping reads the table's stream with the aggregator's role",
  },
  {
    actions: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'],
    functions: ['activityStream'],
    notOnWorkQueues: true,
    reason: "the stream event source mapping sends a batch that failed its retries to the on-failure queue with the aggregator's role",
  },
];

/** The item-level DynamoDB actions a grant can name (no Scan: the code never scans, functions/lib/db.ts refuses to). */
export const ITEM_ACTIONS = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'ConditionCheckItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
] as const;
export type ItemAction = (typeof ITEM_ACTIONS)[number];

/**
 * A partition-key prefix of functions/lib/table.ts (PARTITION_PREFIXES), or a longer prefix under
 * one where a function needs only some of its partitions (the audit references of one kind,
 * AUDIT_REF_KIND).
 */
export type KeyPrefix = PartitionPrefix | `${PartitionPrefix}${string}`;

/**
 * What one function may do in the single table (docs/security.md#least-privilege-in-iam): per
 * key prefix, the item actions its code makes there, and the indexes it queries. Exactly what
 * the code uses: the local IAM twin's grants report (infra/local/iam) fails the test run on a
 * grant nothing used.
 */
export interface TableAccessSpec {
  items: Partial<Record<KeyPrefix, readonly ItemAction[]>>;
  /** Indexes it queries, by access pattern (INDEX in functions/lib/table.ts). */
  indexes?: readonly IndexName[];
  /** DescribeTable (the health check). */
  describe?: boolean;
}

/**
 * Audit entries are only ever appended (PutItem) and, by the hard delete, anonymised field by
 * field (UpdateItem): no function rewrites one whole or deletes one (DynamoDB's TTL does, after
 * the retention; no BatchWriteItem, which could delete). Functions read the log by its day
 * partitions (Query of AUDIT#<day>, the unfiltered log) and fetch the entries a page of
 * references names (BatchGetItem). References (AUDITREF#) are appended the same way; the hard
 * delete also removes the actor-domain references of an anonymised actor (DeleteItem).
 */
const AUDIT_ACTIONS: Readonly<Partial<Record<PartitionPrefix, readonly ItemAction[]>>> = {
  [PK.audit]: ['PutItem', 'UpdateItem', 'Query', 'BatchGetItem'],
  [PK.auditRef]: ['PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'BatchGetItem'],
};

/** The union of several functions' needs (e.g. the admin function also runs the purge's steps). */
export function combinedAccess(...specs: TableAccessSpec[]): TableAccessSpec {
  const items: TableAccessSpec['items'] = {};
  for (const spec of specs) {
    for (const [prefix, actions] of Object.entries(spec.items) as Array<[KeyPrefix, readonly ItemAction[]]>)
      items[prefix] = ITEM_ACTIONS.filter((action) => actions.includes(action) || items[prefix]?.includes(action));
  }
  return {
    items,
    indexes: [...new Set(specs.flatMap((spec) => spec.indexes ?? []))],
    describe: specs.some((spec) => spec.describe),
  };
}

/**
 * One statement per action, naming every prefix the function may use it on: a call whose keys
 * span several prefixes (a BatchWriteItem of a purge, a BatchGetItem of counters) needs all of
 * them in one statement, since `ForAllValues` is evaluated statement by statement.
 */
export function bindTableAccess(
  fn: NodejsFunction,
  data: { tableArn: string; indexArn(name: IndexName): string },
  spec: TableAccessSpec,
): void {
  for (const [auditPrefix, allowed] of Object.entries(AUDIT_ACTIONS) as Array<[PartitionPrefix, readonly ItemAction[]]>) {
    // the prefix itself or any narrower one under it (`AUDITREF#ENTITY#user#`)
    for (const [prefix, actions] of Object.entries(spec.items) as Array<[KeyPrefix, readonly ItemAction[]]>) {
      if (!prefix.startsWith(auditPrefix)) continue;
      const refused = actions.filter((action) => !allowed.includes(action));
      if (refused.length)
        throw new Error(`audit entries are appended, anonymised and queried only: ${refused.join(', ')} on ${prefix} is not granted`);
    }
  }
  for (const action of ITEM_ACTIONS) {
    const prefixes = (Object.entries(spec.items) as Array<[KeyPrefix, readonly ItemAction[]]>)
      .filter(([, actions]) => actions.includes(action))
      .map(([prefix]) => prefix);
    if (!prefixes.length) continue;
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [`dynamodb:${action}`],
        resources: [data.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes.map((prefix) => `${prefix}*`) } },
      }),
    );
  }
  const indexes = [...new Set((spec.indexes ?? []).map((name) => data.indexArn(name)))];
  if (indexes.length) fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: indexes }));
  if (spec.describe) fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:DescribeTable'], resources: [data.tableArn] }));
}

/**
 * Sending mail as the stack's one SES identity (SES v2 SendEmail, functions/lib/email.ts; nothing
 * sends raw MIME); with a configuration set, SES authorizes the send against the set too, so its
 * ARN is granted alongside.
 */
export function bindSendEmail(fn: NodejsFunction, identityArn: string, configurationSetArn?: string): void {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: configurationSetArn ? [identityArn, configurationSetArn] : [identityArn],
    }),
  );
}

/**
 * Reading the SES account's send rate, 24-hour quota and what was sent (SES v2 GetAccount): the
 * bulk stream's budget (functions/lib/bulk-budget.ts). The action has no resource type.
 */
export function bindReadSesAccount(fn: NodejsFunction): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['ses:GetAccount'], resources: ['*'] }));
}

/** Reading the session signing secret (functions/lib/session.ts, once per cold start). */
export function bindSessionSecret(fn: NodejsFunction, secretArn: string): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secretArn] }));
}

/** Reading the origin-verify secret (functions/lib/origin-verify.ts; current and previous version). */
export function bindOriginSecret(fn: NodejsFunction, secretArn: string): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secretArn] }));
}

/** Reading the site-URL parameter (functions/lib/app-url.ts); the ARN is built from its fixed name. */
export function bindAppUrl(fn: NodejsFunction, parameterArn: string): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['ssm:GetParameter'], resources: [parameterArn] }));
}

/** Reading the key of trusted-device cookies and audit email hashes (functions/lib/device-audit-key.ts). */
export function bindDeviceAuditSecret(fn: NodejsFunction, secretArn: string): void {
  fn.addToRolePolicy(
    new PolicyStatement({ sid: 'ReadDeviceAuditKey', actions: ['secretsmanager:GetSecretValue'], resources: [secretArn] }),
  );
  fn.addEnvironment('DEVICE_AUDIT_SECRET_ARN', secretArn);
}

/** Reading the key of unsubscribe links (functions/lib/unsubscribe-token.ts): the signer and the verifier only. */
export function bindUnsubscribeSecret(fn: NodejsFunction, secretArn: string): void {
  // its own statement (a Sid keeps CDK from merging it into another secret's grant)
  fn.addToRolePolicy(
    new PolicyStatement({ sid: 'ReadUnsubscribeKey', actions: ['secretsmanager:GetSecretValue'], resources: [secretArn] }),
  );
  fn.addEnvironment('UNSUBSCRIBE_SECRET_ARN', secretArn);
}
