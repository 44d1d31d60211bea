import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
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
  /**
   * Default 1024 MB: scrypt at N = 2^17 needs 128 MB of its own and the CPU that comes with
   * memory. The auth function, which hashes on every login and registration, gets
   * AUTH_MEMORY_MB (one full vCPU).
   */
  memorySize?: number;
  timeout?: Duration;
  /** Log retention; default one month (infra/stage.ts sets it per stage). */
  logRetention?: RetentionDays;
  /** Bundling for this function; default LEAN_BUNDLING (PASSKEYS_BUNDLING for the passkeys function). */
  bundling?: BundlingOptions;
}

/** Lambda gives one full vCPU at 1,769 MB: scrypt (CPU-bound) runs at full speed from there. */
export const AUTH_MEMORY_MB = 1769;

/**
 * What esbuild does to every function (docs/lean-builds.md has the figures and the reasons):
 * minified, ESM sources preferred (`module` before `main`: better tree-shaking), no source maps
 * (`--enable-source-maps` parses megabytes of map at start-up and slows every stack trace; the
 * names esbuild keeps are enough to read a trace), and the AWS SDK v3 left to the Lambda
 * runtime, which ships it: bundling our four clients alone would take ~340 KB of a 250 KB
 * budget. Exported for the bundle-size test (test/infra/lambda-bundles.test.ts).
 */
export const LEAN_BUNDLING = {
  forceDockerBundling: false, // esbuild from node_modules: synth needs no Docker
  format: OutputFormat.CJS,
  target: 'node22',
  minify: true,
  keepNames: true,
  sourceMap: false,
  mainFields: ['module', 'main'],
  bundleAwsSDK: false,
  externalModules: ['@aws-sdk/*'],
  // Data files read at run time sit beside index.js (functions/accounts/passwords.ts).
  define: { 'import.meta.dirname': '__dirname' },
  commandHooks: {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) => [
      `cp "${path.join(inputDir, 'functions', 'accounts', 'common-passwords.br')}" "${outputDir}"`,
      // served by GET /api/openapi.json (functions/api-docs/openapi-route.ts)
      `cp "${path.join(inputDir, 'functions', 'api-docs', 'openapi.json')}" "${outputDir}"`,
    ],
  },
} satisfies BundlingOptions;

/**
 * The packages @simplewebauthn/server imports for reading attestation certificates (ASN.1,
 * X.509, with tsyringe and reflect-metadata): ~256 KB minified. The passkeys function accepts no
 * attestation with certificates (functions/accounts/webauthn.ts refuses them first), so its
 * bundle gets functions/accounts/webauthn-asn1-lite.ts instead: the DER ECDSA-signature reader
 * the flows need, and certificate classes that throw if ever used (docs/lean-builds.md).
 */
export const WEBAUTHN_CERTIFICATE_PACKAGES = [
  '@peculiar/asn1-schema',
  '@peculiar/asn1-ecc',
  '@peculiar/asn1-rsa',
  '@peculiar/asn1-x509',
  '@peculiar/asn1-x509-post-quantum',
  '@peculiar/asn1-android',
  '@peculiar/x509',
  'reflect-metadata',
] as const;
export const WEBAUTHN_ASN1_LITE = path.join(REPO_ROOT, 'functions', 'accounts', 'webauthn-asn1-lite.ts');

/** LEAN_BUNDLING plus the aliases above (an absolute path: local esbuild runs in the asset directory). */
export const PASSKEYS_BUNDLING = {
  ...LEAN_BUNDLING,
  esbuildArgs: { '--alias': WEBAUTHN_CERTIFICATE_PACKAGES.map((name) => `${name}=${WEBAUTHN_ASN1_LITE}`) },
} satisfies BundlingOptions;

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
      bundling: props.bundling ?? LEAN_BUNDLING,
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
const leadingKeys = (prefixes: readonly string[]) => ({
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes.map((prefix) => `${prefix}*`) },
});

/** Least-privilege table access (see TableAccessSpec); `tableResourceArns` = [table, ...indexes] from DataTable. */
export function bindTableAccess(fn: NodejsFunction, tableResourceArns: string[], spec: TableAccessSpec): void {
  const [tableArn, ...indexArns] = tableResourceArns;
  if (spec.write.includes(AUDIT_PREFIX) || spec.read?.includes(AUDIT_PREFIX))
    throw new Error('grant audit access through audit / auditWriter');
  const readable = [...spec.write, ...(spec.read ?? []), ...(spec.audit || spec.auditWriter ? [AUDIT_PREFIX] : [])];
  fn.addToRolePolicy(new PolicyStatement({ actions: TABLE_READ_ACTIONS, resources: [tableArn], conditions: leadingKeys(readable) }));
  if (spec.write.length) {
    fn.addToRolePolicy(
      new PolicyStatement({ actions: TABLE_WRITE_ITEM_ACTIONS, resources: [tableArn], conditions: leadingKeys(spec.write) }),
    );
  }
  if (spec.audit || spec.auditWriter) {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: spec.auditWriter ? ['dynamodb:PutItem', 'dynamodb:UpdateItem'] : ['dynamodb:PutItem'],
        resources: [tableArn],
        conditions: leadingKeys([AUDIT_PREFIX]),
      }),
    );
  }
  if (spec.queryIndexes) fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: indexArns }));
  if (spec.describe) fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:DescribeTable'], resources: [tableArn] }));
}

/**
 * Sending mail as the stack's one SES identity; with a configuration set, SES authorizes the
 * send against the set too, so its ARN is granted alongside.
 */
export function bindSendEmail(fn: NodejsFunction, identityArn: string, configurationSetArn?: string): void {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['ses:SendEmail', 'ses:SendRawEmail'],
      resources: configurationSetArn ? [identityArn, configurationSetArn] : [identityArn],
    }),
  );
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

/** Reading the key of unsubscribe links (functions/lib/unsubscribe-token.ts): the signer and the verifier only. */
export function bindUnsubscribeSecret(fn: NodejsFunction, secretArn: string): void {
  // its own statement (a Sid keeps CDK from merging it into another secret's grant)
  fn.addToRolePolicy(
    new PolicyStatement({ sid: 'ReadUnsubscribeKey', actions: ['secretsmanager:GetSecretValue'], resources: [secretArn] }),
  );
  fn.addEnvironment('UNSUBSCRIBE_SECRET_ARN', secretArn);
}
