import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** Repository root: NodejsFunction resolves entries and the lock file from here. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface AppFunctionProps {
  /** Entry file relative to the repository root, e.g. `functions/groups/auth.ts` (exports `handler`). */
  entry: string;
  /** Powertools service name (log field `service`). */
  serviceName: string;
  /** Variables every function shares (table, secret, mail sender …). */
  environment: Record<string, string>;
  description?: string;
  /** Default 1024 MB: scrypt at N = 2^17 needs 128 MB of its own and the CPU that comes with memory. */
  memorySize?: number;
  timeout?: Duration;
}

/**
 * One Lambda function with the project defaults: Node.js 22 on arm64, bundled locally by esbuild
 * (no Docker), minified with source maps, its own log group with a retention, and a role that
 * starts with nothing but writing to that log group. Everything else is granted by the `bind*`
 * helpers below, each naming exact resources.
 */
export class AppFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: RetentionDays.ONE_MONTH,
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
      environment: {
        ...props.environment,
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        NODE_OPTIONS: '--enable-source-maps',
      },
      bundling: {
        forceDockerBundling: false, // esbuild from node_modules: synth needs no Docker
        format: OutputFormat.CJS,
        target: 'node22',
        minify: true,
        sourceMap: true,
        // The SDK versions the tests ran against, not whatever the runtime ships this month.
        bundleAwsSDK: true,
      },
    });
    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Pinned to Node.js 22, the runtime the code is bundled for (target node22) and tested on; moved on deliberately, not by a nag.',
    });
  }
}

export type TableAccess = 'read' | 'readWrite';

// No dynamodb:Scan in either list: the code never scans (functions/lib/db.ts refuses to).
const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/** Table access on the table and its named indexes only (`resourceArns` from DataTable). */
export function bindTable(fn: NodejsFunction, tableResourceArns: string[], access: TableAccess): void {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: access === 'read' ? TABLE_READ_ACTIONS : [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS],
      resources: tableResourceArns,
    }),
  );
}

/**
 * L7 (docs/security.md): what one function may do in the single table, by partition-key prefix
 * (`dynamodb:LeadingKeys`, e.g. `USER#`, `RATE#`). Audit entries (`AUDIT#`) are apart: a
 * function that audits may only add them (PutItem); only the audit writer — the function that
 * runs the hard delete, which anonymises entries — may update them; nobody may delete one
 * (DynamoDB's TTL does, after the retention).
 */
export interface TableAccessSpec {
  /** Prefixes the function writes (and reads). */
  write: readonly string[];
  /** Prefixes it only reads. */
  read?: readonly string[];
  /** Queries on the GSIs (they carry other partition keys, so no LeadingKeys condition there). */
  queryIndexes?: boolean;
  /** Adds audit entries. */
  audit?: boolean;
  /** The one function allowed to rewrite audit entries (hard delete's anonymisation). */
  auditWriter?: boolean;
  /** DescribeTable (the health check). */
  describe?: boolean;
}

export const AUDIT_PREFIX = 'AUDIT#';
const TABLE_WRITE_ITEM_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const leadingKeys = (prefixes: readonly string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes.map((prefix) => `${prefix}*`) } });

/** Least-privilege table access (see TableAccessSpec); `tableResourceArns` = [table, ...indexes] from DataTable. */
export function bindTableAccess(fn: NodejsFunction, tableResourceArns: string[], spec: TableAccessSpec): void {
  const [tableArn, ...indexArns] = tableResourceArns;
  if (spec.write.includes(AUDIT_PREFIX) || spec.read?.includes(AUDIT_PREFIX)) throw new Error('grant audit access through audit / auditWriter');
  const readable = [...spec.write, ...(spec.read ?? []), ...(spec.audit || spec.auditWriter ? [AUDIT_PREFIX] : [])];
  fn.addToRolePolicy(new PolicyStatement({ actions: TABLE_READ_ACTIONS, resources: [tableArn], conditions: leadingKeys(readable) }));
  if (spec.write.length) {
    fn.addToRolePolicy(new PolicyStatement({ actions: TABLE_WRITE_ITEM_ACTIONS, resources: [tableArn], conditions: leadingKeys(spec.write) }));
  }
  if (spec.audit || spec.auditWriter) {
    fn.addToRolePolicy(
      new PolicyStatement({ actions: spec.auditWriter ? ['dynamodb:PutItem', 'dynamodb:UpdateItem'] : ['dynamodb:PutItem'], resources: [tableArn], conditions: leadingKeys([AUDIT_PREFIX]) }),
    );
  }
  if (spec.queryIndexes) fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: indexArns }));
  if (spec.describe) fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:DescribeTable'], resources: [tableArn] }));
}

/** Sending mail as the stack's one SES identity. */
export function bindSendEmail(fn: NodejsFunction, identityArn: string): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['ses:SendEmail', 'ses:SendRawEmail'], resources: [identityArn] }));
}

/** Reading the session signing secret (functions/lib/session.ts, once per cold start). */
export function bindSessionSecret(fn: NodejsFunction, secretArn: string): void {
  fn.addToRolePolicy(
    new PolicyStatement({ actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'], resources: [secretArn] }),
  );
}

/** Reading the origin-verify secret (functions/lib/origin-verify.ts; current and previous version). */
export function bindOriginSecret(fn: NodejsFunction, secretArn: string): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secretArn] }));
}

/** Reading the site-URL parameter (functions/lib/app-url.ts); the ARN is built from its fixed name. */
export function bindAppUrl(fn: NodejsFunction, parameterArn: string): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['ssm:GetParameter'], resources: [parameterArn] }));
}
