import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, CfnElement, type Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { buildStacks } from '../../app-stacks';
import { REPO_ROOT } from '../../constructs/app-function';
import { IntrinsicResolver } from './intrinsics';
import { FUNCTION_KEYS, type FunctionRole, type PolicyDocument, TWIN_ACCOUNT, TWIN_REGION, type TwinIamModel } from './model';

/** The physical name the twin gives the table; any local table name is mapped onto it. */
const TWIN_TABLE_NAME = 'career-program';

export type Template = { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> };

/**
 * Synthesizes the CDK app exactly as `cdk deploy --all` would for an account and a region other
 * than us-east-1 (the linked multi-stack build, cdk.json's context and feature flags), without
 * bundling the Lambdas (their code does not change a policy), and reads every function's role.
 * `editTemplate` changes the synthesized main template first (a test removes a grant with it).
 */
export function synthesizeIamModel(options: { editTemplate?: (template: Template) => void } = {}): TwinIamModel {
  const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  const scratch = mkdtempSync(path.join(tmpdir(), 'iam-twin-'));
  try {
    const siteDir = path.join(scratch, 'site');
    mkdirSync(siteDir);
    writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>twin</title>');
    const app = new App({ outdir: path.join(scratch, 'cdk.out'), context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] } });
    const { main } = buildStacks(app, {
      account: TWIN_ACCOUNT,
      region: TWIN_REGION,
      props: {
        siteDir,
        // prod's API origin is a domain of the operator's: the execute-api address stands in (no grant depends on it)
        executeApiEndpoint: true,
      },
    });
    const template = app.synth().getStackByName(main.stackName).template as Template;
    options.editTemplate?.(template);
    const logicalId = (construct: IConstruct) => {
      const resource = construct.node.defaultChild;
      if (!resource || !CfnElement.isCfnElement(resource)) throw new Error(`${construct.node.path} has no CloudFormation resource`);
      return main.getLogicalId(resource);
    };
    const resolver = new IntrinsicResolver(template.Resources, {
      account: TWIN_ACCOUNT,
      region: TWIN_REGION,
      stackName: main.stackName,
      physicalNames: { [logicalId(main.data.table)]: TWIN_TABLE_NAME },
    });
    const arnOf = (stack: Stack, token: string) => String(resolver.resolve(stack.resolve(token)));

    const tableArn = arnOf(main, main.data.table.tableArn);
    const indexArns: Record<string, string> = {};
    for (const arn of main.data.resourceArns.slice(1).map((token) => arnOf(main, token))) indexArns[arn.split('/index/')[1]] = arn;

    const roles = {} as Record<(typeof FUNCTION_KEYS)[number], FunctionRole>;
    for (const key of FUNCTION_KEYS) {
      const fn = main.functions[key].fn;
      if (!fn.role) throw new Error(`function ${key} has no role`);
      const roleId = logicalId(fn.role);
      const roleResource = template.Resources[roleId];
      if (roleResource.Properties?.Policies || roleResource.Properties?.ManagedPolicyArns)
        throw new Error(`the role of ${key} has inline or managed policies, which the twin does not read`);
      const policies = Object.entries(template.Resources)
        .filter(([, resource]) => resource.Type === 'AWS::IAM::Policy')
        .filter(([, resource]) => JSON.stringify(resource.Properties?.Roles ?? []).includes(JSON.stringify({ Ref: roleId })))
        .map(([name, resource]) => ({ name, document: resolver.resolve(resource.Properties?.PolicyDocument) as PolicyDocument }));
      roles[key] = { roleArn: arnOf(main, fn.role.roleArn), functionPath: fn.node.path, policies };
    }

    return {
      account: TWIN_ACCOUNT,
      region: TWIN_REGION,
      stackName: main.stackName,
      tableArn,
      indexArns,
      queueArns: { purge: arnOf(main, main.purgeQueue.queue.queueArn), reminders: arnOf(main, main.reminderQueue.queue.queueArn) },
      mailIdentityArn: arnOf(main, main.mailIdentity.emailIdentityArn),
      configurationSetName: arnOf(main, main.mailEvents.configurationSet.configurationSetName),
      configurationSetArn: arnOf(main, main.mailEvents.configurationSetArn),
      bulkConfigurationSetName: arnOf(main, main.mailEvents.bulkConfigurationSet.configurationSetName),
      bulkConfigurationSetArn: arnOf(main, main.mailEvents.bulkConfigurationSetArn),
      secretArns: {
        session: arnOf(main, main.sessionSecret.secretArn),
        unsubscribe: arnOf(main, main.unsubscribeSecret.secretArn),
        origin: arnOf(main, main.originSecret.secretArn),
        'device-audit': arnOf(main, main.deviceAuditSecret.secretArn),
      },
      parameterArns: { 'app-url': arnOf(main, main.appUrlParameter.parameterArn) },
      bucketArns: { exports: arnOf(main, main.exports.bucket.bucketArn) },
      roles,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
