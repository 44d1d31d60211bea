import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ASSET_GRACE_DAYS, ASSET_HISTORY_KEY } from '../../infra/constructs/site-asset-cleanup';
import { asList, type SynthesizedStack, synthStack } from './synth-stack';
import { asObject, asObjects, at, resourceOf, resourcesOf } from './template';

/** A build with hashed assets (and a source map the upload leaves out), as web/dist holds it. */
function siteWithAssets(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'site-assets-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><script src="/assets/index-Ab12.js"></script>');
  mkdirSync(path.join(dir, 'assets'));
  for (const name of ['index-Ab12.js', 'index-Ab12.js.map', 'index-Cd34.css', 'route-Ef56.js'])
    writeFileSync(path.join(dir, 'assets', name), name);
  return dir;
}

let s: SynthesizedStack;
beforeAll(() => {
  s = synthStack({ siteDir: siteWithAssets() });
});

const cleanupOf = () => {
  const found = Object.entries(resourcesOf(s.template, 'Custom::SiteAssetCleanup'));
  expect(found).toHaveLength(1);
  return { id: found[0][0], resource: found[0][1] };
};
/** The custom resource a BucketDeployment adds (CustomResource-<memory>MiB). */
const uploadOf = (deployment: IConstruct) =>
  s.idOf(deployment.node.children.find((child) => child.node.id.startsWith('CustomResource-')) ?? deployment);

describe('site asset cleanup', () => {
  it('is given the release’s own assets (the build’s files under assets/, without source maps) and the grace period', () => {
    expect(cleanupOf().resource.Properties).toMatchObject({
      BucketName: { Ref: s.idOf(s.stack.site.bucket) },
      Prefix: 'assets/',
      HistoryKey: ASSET_HISTORY_KEY,
      GraceDays: String(ASSET_GRACE_DAYS),
      CurrentAssets: ['assets/index-Ab12.js', 'assets/index-Cd34.css', 'assets/route-Ef56.js'],
    });
    expect(ASSET_GRACE_DAYS).toBe(30);
  });

  it('runs after both uploads, so it judges the bucket with the new release in it', () => {
    const dependsOn = asList(cleanupOf().resource.DependsOn);
    expect(dependsOn).toEqual(expect.arrayContaining([uploadOf(s.stack.site.assetsDeployment), uploadOf(s.stack.site.deployment)]));
  });

  it('may list assets/ and its record, delete under assets/ and read and write its record: nothing else', () => {
    const serviceToken = at(cleanupOf().resource.Properties, 'ServiceToken');
    const handlerId = asObject(serviceToken, 'ServiceToken')['Fn::GetAtt'] as [string, string];
    expect(handlerId[1]).toBe('Arn');
    const handler = resourceOf(s.template, 'AWS::Lambda::Function', handlerId[0]);
    const roleId = (asObject(handler.Properties.Role, 'Role')['Fn::GetAtt'] as [string, string])[0];
    const role = resourceOf(s.template, 'AWS::IAM::Role', roleId);
    const bucketArn = { 'Fn::GetAtt': [s.idOf(s.stack.site.bucket), 'Arn'] };
    const objects = (suffix: string) => ({ 'Fn::Join': ['', [bucketArn, `/${suffix}`]] });
    const statements = asObjects(at(role.Properties, 'Policies', 0, 'PolicyDocument', 'Statement'), 'Statement');
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: bucketArn,
        Condition: { StringEquals: { 's3:prefix': ['assets/', ASSET_HISTORY_KEY] } },
      },
      { Effect: 'Allow', Action: 's3:DeleteObject', Resource: objects('assets/*') },
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: objects(ASSET_HISTORY_KEY) },
    ]);
    expect(asList(role.Properties.Policies)).toHaveLength(1);
    // its logs only, through the managed basic execution policy
    expect(role.Properties.ManagedPolicyArns).toEqual([
      { 'Fn::Sub': 'arn:${AWS::Partition}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole' },
    ]);
    // no other policy is attached to the role
    for (const [id, policy] of Object.entries(resourcesOf(s.template, 'AWS::IAM::Policy')))
      expect(asList(policy.Properties.Roles), id).not.toContainEqual({ Ref: roleId });
  });

  it('keeps its record out of what CloudFront may read', () => {
    const policies = Object.values(resourcesOf(s.template, 'AWS::S3::BucketPolicy')).filter(
      (policy) => JSON.stringify(policy.Properties.Bucket) === JSON.stringify({ Ref: s.idOf(s.stack.site.bucket) }),
    );
    const statements = policies.flatMap((policy) => asObjects(at(policy.Properties, 'PolicyDocument', 'Statement'), 'Statement'));
    expect(statements).toContainEqual({
      Effect: 'Deny',
      Principal: { Service: 'cloudfront.amazonaws.com' },
      Action: 's3:GetObject',
      Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [s.idOf(s.stack.site.bucket), 'Arn'] }, `/${ASSET_HISTORY_KEY}`]] },
    });
  });
});
