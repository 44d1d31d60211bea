import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { EXPORT_OBJECT_PREFIX } from '../../shared/constants';

/**
 * Where "Download my data" puts the document of an account too large for one API answer
 * (functions/lib/export-objects.ts, docs/product.md "Account data"): the learner fetches it once
 * through a presigned link that lives minutes. The objects are personal data: private,
 * encrypted, TLS only, gone after a day, and only the function that exports may write or read
 * them (presigning signs with its credentials, so the link can read what the function may).
 */
export class ExportBucket extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: { accessLogs: IBucket; retain?: boolean }) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      // a link lives minutes; a day covers any retry of its download, then the copy is gone
      lifecycleRules: [{ expiration: Duration.days(1), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      // who downloaded an export is evidence after an incident
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 'exports/',
      // Copies of data kept in the table. Prod deletes nothing on stack deletion (no
      // auto-delete function with delete rights on its buckets): a retained bucket empties itself
      // within a day by the rule above. A dev stack takes it along.
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !props.retain,
    });
  }

  /** Lets `fn` write export objects and read them back (the presigned link), and tells it the bucket. */
  bindExporter(fn: IFunction & { addEnvironment(key: string, value: string): unknown }): void {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:PutObject', 's3:GetObject'],
        resources: [this.bucket.arnForObjects(`${EXPORT_OBJECT_PREFIX}*`)],
      }),
    );
    fn.addEnvironment('EXPORT_BUCKET', this.bucket.bucketName);
    const bucketId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as never);
    if (!fn.role) throw new Error('the exporting function has no role');
    Validations.of(fn.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${EXPORT_OBJECT_PREFIX}*]`,
      reason: 'Each export is an object of its own, named when it is written: the grant covers the export prefix of this bucket only.',
    });
  }
}
