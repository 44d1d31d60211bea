import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SynthesizedStack, synthStack } from './synth-stack';
import { resourcesOf } from './template';

/**
 * Nothing that holds data is replaced by accident: the logical IDs of the table, the secrets, the
 * buckets and the SES identity are pinned in deployed-resources.json (as deployed-indexes.json pins
 * the indexes). A renamed construct or a moved scope gives a resource a new logical ID, and
 * CloudFormation then creates a new, empty one and deletes or orphans the old: sessions signed out,
 * mailed links dead, the sender unverified, or a table left behind.
 */
const pinned = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, 'deployed-resources.json'), 'utf8')) as {
    resources: Record<string, string[]>;
  }
).resources;

/** The kinds whose resources keep data: they must outlive a replacement or a stack deletion in prod. */
const HOLDS_DATA = ['AWS::DynamoDB::Table', 'AWS::SecretsManager::Secret', 'AWS::S3::Bucket'];

let prod: SynthesizedStack;
let dev: SynthesizedStack;
beforeAll(() => {
  prod = synthStack();
  dev = synthStack({ stage: 'dev', apiCustomDomain: undefined });
});

describe('logical IDs of the resources that hold data', () => {
  it.each(Object.keys(pinned))('%s: exactly the pinned logical IDs, in prod and in dev', (type) => {
    for (const s of [prod, dev])
      expect(Object.keys(resourcesOf(s.template, type)).sort(), `${type} (${s.stack.stackName})`).toEqual([...pinned[type]].sort());
  });

  it('pins every kind that holds data', () => {
    expect(Object.keys(pinned)).toEqual(expect.arrayContaining([...HOLDS_DATA, 'AWS::SES::EmailIdentity']));
  });
});

describe('in prod, what holds data survives a replacement and a stack deletion', () => {
  it.each(HOLDS_DATA)('%s: DeletionPolicy and UpdateReplacePolicy Retain', (type) => {
    const resources = resourcesOf(prod.template, type);
    expect(Object.keys(resources).length).toBeGreaterThan(0);
    for (const [id, resource] of Object.entries(resources))
      expect({ id, deletion: resource.DeletionPolicy, replace: resource.UpdateReplacePolicy }).toEqual({
        id,
        deletion: 'Retain',
        replace: 'Retain',
      });
  });
});
