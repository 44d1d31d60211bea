import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildStacks } from '../../infra/app-stacks';
import { DataTable } from '../../infra/constructs/data-table';
import { TABLE_ACCESS } from '../../infra/table-access';
import { ORIGIN_VERIFY_HEADER } from '../../shared/origin-verify';
import { section } from './doc-commands';
import { type SynthesizedStack, synthStack, TEST_API_ORIGIN } from './synth-stack';
import { asObjects, asString, at, resourcesOf } from './template';

/**
 * What keeps an operator's procedure safe (docs/runbook.md "Procedures"): prod stacks refuse
 * deletion and keep their secrets, the origin secret's rotation reaches CloudFront, and an update
 * never adds or removes more than one index (CloudFormation's limit per table update), and the
 * restore procedure stops everything that writes to the table.
 */
let prod: SynthesizedStack;
let dev: SynthesizedStack;
beforeAll(() => {
  prod = synthStack({ stage: 'prod', originSecretVersion: 'version-2' });
  dev = synthStack({ stage: 'dev' });
});

/** The throwaway site directory synthStack made (a deploy needs web/dist). */
const siteDirOf = (s: SynthesizedStack): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'site-'));
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>${s.stack.stackName}</title>`);
  return dir;
};
const secrets = (s: SynthesizedStack) =>
  [s.stack.sessionSecret, s.stack.unsubscribeSecret, s.stack.deviceAuditSecret, s.stack.originSecret].map(
    (secret) => resourcesOf(s.template, 'AWS::SecretsManager::Secret')[s.idOf(secret)],
  );
const originHeader = (s: SynthesizedStack): string => {
  const distribution = Object.values(resourcesOf(s.template, 'AWS::CloudFront::Distribution'))[0];
  const origins = asObjects(at(distribution.Properties, 'DistributionConfig', 'Origins'), 'Origins');
  const headers = origins.flatMap((origin) => asObjects(origin.OriginCustomHeaders ?? [], 'OriginCustomHeaders'));
  const header = headers.find((h) => h.HeaderName === ORIGIN_VERIFY_HEADER);
  expect(header).toBeDefined();
  return JSON.stringify(header!.HeaderValue);
};

describe('stack deletion', () => {
  it('prod stacks have termination protection, dev stacks none', () => {
    for (const [stage, expected] of [
      ['prod', true],
      ['dev', false],
    ] as const) {
      const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), {
        account: '123456789012',
        region: 'eu-west-1',
        props: { stage, siteDir: siteDirOf(prod), apiCustomDomain: TEST_API_ORIGIN },
      });
      for (const stack of [stacks.edge, stacks.main, stacks.logs!])
        expect(stack.terminationProtection, `${stage} ${stack.stackName}`).toBe(expected);
    }
  });

  it('prod keeps the session, unsubscribe and origin secrets when the stack is deleted; dev deletes them', () => {
    for (const secret of secrets(prod)) expect(secret).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    for (const secret of secrets(dev)) expect(secret).toMatchObject({ DeletionPolicy: 'Delete' });
  });
});

describe('origin secret rotation', () => {
  it('CloudFront sends the version named by originSecretVersion, so a rotation is a template change the deploy applies', () => {
    expect(originHeader(prod)).toContain(':SecretString:::version-2}}');
    // without it: the version current at the first deploy
    expect(originHeader(dev)).toContain(':SecretString:::}}');
  });
});

describe('index changes', () => {
  it('differ from the deployed indexes by one GSI at most (CloudFormation adds or removes one per update)', () => {
    const stack = new Stack(new App(), 'Indexes');
    new DataTable(stack, 'Data');
    const table = Object.values(resourcesOf(Template.fromStack(stack), 'AWS::DynamoDB::Table'))[0];
    const synthesized = asObjects(table.Properties.GlobalSecondaryIndexes, 'GlobalSecondaryIndexes').map((gsi) =>
      asString(gsi.IndexName, 'IndexName'),
    );
    const deployed = (JSON.parse(readFileSync(path.resolve(import.meta.dirname, 'deployed-indexes.json'), 'utf8')) as { indexes: string[] })
      .indexes;
    const added = synthesized.filter((name) => !deployed.includes(name));
    const removed = deployed.filter((name) => !synthesized.includes(name));
    expect(added.length + removed.length, `added ${added.join(', ')}; removed ${removed.join(', ')}`).toBeLessThanOrEqual(1);
  });
});

describe('restore from a point in time', () => {
  const procedure = section(
    readFileSync(path.resolve(import.meta.dirname, '../../docs/runbook.md'), 'utf8'),
    '### Restore the table to a point in time',
  );
  /** How the runbook names a function: reminderWorker → reminder-worker. */
  const docName = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  const functionNameOf = (id: string) => Object.entries(prod.stack.functions).find(([, f]) => prod.idOf(f.fn) === id)?.[0];

  it('stops every function that writes to the table (the seed runs only during a deploy)', () => {
    const writers = Object.entries(TABLE_ACCESS)
      .filter(([, access]) =>
        Object.values(access?.items ?? {}).some((actions) => (actions ?? []).some((action) => /Put|Update|Delete|Write/.test(action))),
      )
      .map(([name]) => name)
      .filter((name) => name !== 'seed');
    expect(writers.length).toBeGreaterThan(5);
    // the step that sets their concurrency to 0, up to the next numbered step
    const step = /\*\*Stop every writer\*\*[\s\S]*?(?=\n\d+\. )/.exec(procedure)?.[0] ?? '';
    for (const name of writers) expect(step, name).toMatch(new RegExp(`[ ,]${docName(name)}[ ,]`));
  });

  it("disables every queue's event source mapping and every schedule first", () => {
    const mappings = Object.values(resourcesOf(prod.template, 'AWS::Lambda::EventSourceMapping')).map((mapping) =>
      functionNameOf(asString(at(mapping.Properties, 'FunctionName', 'Ref'), 'FunctionName')),
    );
    expect(mappings.length).toBeGreaterThan(0);
    for (const name of mappings) expect(procedure, String(name)).toContain(`${docName(String(name))}`);
    const rules = Object.keys(resourcesOf(prod.template, 'AWS::Events::Rule'));
    expect(rules.length).toBeGreaterThan(0);
    // the logical ID without CDK's hash suffix, as the console lists it
    for (const id of rules) expect(procedure, id).toContain(`\`${id.replace(/[0-9A-F]{8}$/, '')}…\``);
  });
});
