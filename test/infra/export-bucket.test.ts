import { beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_OBJECT_PREFIX } from '../../shared/constants';
import { privateLoggedBucket, type SynthesizedStack, synthStack } from './synth-stack';
import { asObjects, at, resourceOf, resourcesOf } from './template';

/**
 * The bucket of large account exports (infra/constructs/export-bucket.ts): personal data, so
 * private, encrypted, TLS only, gone after a day, and readable and writable by the function that
 * exports (the learner function, whose credentials sign the download link) and by no other.
 */
let s: SynthesizedStack;
beforeAll(() => {
  s = synthStack();
});

describe('the export bucket', () => {
  it('is private, encrypted, refuses plain HTTP, logs its access and expires every object after a day', () => {
    const bucketId = s.idOf(s.stack.exports.bucket);
    const bucket = resourceOf(s.template, 'AWS::S3::Bucket', bucketId);
    expect(bucket.Properties).toMatchObject(privateLoggedBucket(s, 'exports/'));
    const rules = asObjects(at(bucket.Properties, 'LifecycleConfiguration', 'Rules'), 'Rules');
    expect(rules).toEqual([
      expect.objectContaining({ ExpirationInDays: 1, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }),
    ]);
    const policies = resourcesOf(s.template, 'AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: bucketId } } });
    expect(JSON.stringify(Object.values(policies)[0]?.Properties)).toContain('aws:SecureTransport');
  });

  it('lets the learner function alone put and get objects under the export prefix, and tells it the bucket', () => {
    const bucketId = s.idOf(s.stack.exports.bucket);
    const learnerRole = s.idOf(s.stack.functions.learner.fn.role!);
    const grants = Object.values(resourcesOf(s.template, 'AWS::IAM::Policy')).flatMap((policy) =>
      asObjects(at(policy.Properties, 'PolicyDocument', 'Statement'), 'Statement')
        .filter((statement) => JSON.stringify(statement.Resource).includes(bucketId))
        .map((statement) => ({ roles: policy.Properties.Roles, statement })),
    );
    expect(grants).toEqual([
      {
        roles: [{ Ref: learnerRole }],
        statement: {
          Effect: 'Allow',
          Action: ['s3:GetObject', 's3:PutObject'],
          Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${EXPORT_OBJECT_PREFIX}*`]] },
        },
      },
    ]);
    const learner = resourceOf(s.template, 'AWS::Lambda::Function', s.idOf(s.stack.functions.learner.fn));
    expect(at(learner.Properties, 'Environment', 'Variables', 'EXPORT_BUCKET')).toEqual({ Ref: bucketId });
  });
});
