import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { ApiOriginDomain } from '../../infra/constructs/http-api';
import { type CareerProgramStackProps, CareerProgramStack } from '../../infra/stack';
import { asObjects, at, resourcesOf } from './template';

export interface SynthesizedStack {
  stack: CareerProgramStack;
  template: Template;
  /** Logical ID of a construct's CloudFormation resource, e.g. of `stack.functions.auth.fn`. */
  idOf(construct: IConstruct): string;
}

/**
 * The API's own domain behind origin mutual TLS, which a prod stack needs (infra/stage.ts: prod
 * has no execute-api address). Every synthesized stack has it unless the props say
 * `apiCustomDomain: undefined`.
 */
export const TEST_API_ORIGIN: ApiOriginDomain = {
  domainName: 'api.learn.example.org',
  certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/api-certificate',
  truststoreUri: 's3://career-origin-truststore/origin-ca.pem',
  truststoreVersion: 'truststore-version-1',
  clientCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/origin-client-certificate',
};

/**
 * Synthesized stacks by their props. The infra files share one module graph per worker
 * (vitest.config.ts), so a stack with the same props is built once per worker, not once per file:
 * the tests only read a stack and its template, never change them.
 */
const synthesized = new Map<string, SynthesizedStack>();

/**
 * Builds the real stack the way `cdk synth` does (cdk.json's feature flags) but without
 * bundling the Lambdas (esbuild would take most of the time and is proven by `npm run synth`),
 * with a throwaway site directory instead of web/dist.
 */
export function synthStack(given: CareerProgramStackProps = {}): SynthesizedStack {
  const props = { apiCustomDomain: TEST_API_ORIGIN, ...given };
  const key = JSON.stringify(props);
  const known = synthesized.get(key);
  if (known) return known;
  const built = buildStack(props);
  synthesized.set(key, built);
  return built;
}

function buildStack(props: CareerProgramStackProps): SynthesizedStack {
  const cdkJson = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  const siteDir = mkdtempSync(path.join(tmpdir(), 'site-'));
  writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>test</title>');
  const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
  const stack = new CareerProgramStack(app, 'TestStack', { siteDir, ...props });
  const template = Template.fromStack(stack);
  return {
    stack,
    template,
    idOf: (construct) => {
      const resource = construct.node.defaultChild;
      if (!resource || !CfnElement.isCfnElement(resource)) throw new Error(`${construct.node.path} has no CloudFormation resource`);
      return stack.getLogicalId(resource);
    },
  };
}

/** All statements of all AWS::IAM::Policy resources, with the policy's logical ID. */
export function policyStatements(template: Template): Array<{ policyId: string; statement: Record<string, unknown> }> {
  const out: Array<{ policyId: string; statement: Record<string, unknown> }> = [];
  for (const [policyId, policy] of Object.entries(resourcesOf(template, 'AWS::IAM::Policy'))) {
    for (const statement of asObjects(at(policy.Properties, 'PolicyDocument', 'Statement'), `${policyId}.PolicyDocument.Statement`))
      out.push({ policyId, statement });
  }
  return out;
}

/**
 * What every private bucket of the stack carries: public access blocked, SSE-S3, and its access
 * logged into the site's log bucket under its own prefix (for `toMatchObject` on its properties).
 */
export const privateLoggedBucket = (s: SynthesizedStack, logPrefix: string) => ({
  PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
  BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
  LoggingConfiguration: { DestinationBucketName: { Ref: s.idOf(s.stack.site.logBucket) }, LogFilePrefix: logPrefix },
});

export const asList = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Every Lambda function of the stack, by its construct name (the infra tests check each one). */
export const STACK_FUNCTIONS = [
  'auth',
  'passkeys',
  'learner',
  'admin',
  'reminders',
  'seed',
  'mailEvents',
  'reminderWorker',
  'purge',
  'erasure',
  'reconcile',
  'activityStream',
] as const;
