import { Stack } from 'aws-cdk-lib';
import { CfnDelivery, CfnDeliveryDestination, CfnDeliverySource } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/**
 * The fields CloudFront access logs keep (logging v2, field selection). Left out on purpose
 * (docs/security.md): `cs-uri-query` (the reset link's `?token=`, and the token the page sends to
 * /api/auth/password-reset/validate), `cs(Referer)` (assets the reset page loads carry its full
 * address as the Referer) and `cs(Cookie)` (session cookies).
 */
export const CLOUDFRONT_LOG_FIELDS = [
  'timestamp',
  'DistributionId',
  'date',
  'time',
  'x-edge-location',
  'sc-bytes',
  'c-ip',
  'cs-method',
  'cs(Host)',
  'cs-uri-stem',
  'sc-status',
  'cs(User-Agent)',
  'x-edge-result-type',
  'x-edge-request-id',
  'x-host-header',
  'cs-protocol',
  'cs-bytes',
  'time-taken',
  'ssl-protocol',
  'ssl-cipher',
  'x-edge-response-result-type',
  'cs-protocol-version',
  'time-to-first-byte',
  'x-edge-detailed-result-type',
  'sc-content-type',
  'sc-content-len',
] as const;
export const CLOUDFRONT_LOG_FIELDS_LEFT_OUT = ['cs-uri-query', 'cs(Referer)', 'cs(Cookie)'] as const;

export interface CloudFrontAccessLogsProps {
  /** arn:aws:cloudfront::<account>:distribution/<id> */
  distributionArn: string;
  /** The S3 bucket the logs go to (its policy must let delivery.logs.amazonaws.com write). */
  bucketArn: string;
}

/**
 * CloudFront access logs (standard logging v2) into S3, without query strings. CloudFront's
 * delivery source must live in us-east-1: the main stack holds this construct when it is
 * deployed there, otherwise a small us-east-1 companion stack does (infra/app.ts).
 */
export class CloudFrontAccessLogs extends Construct {
  readonly delivery: CfnDelivery;

  constructor(scope: Construct, id: string, props: CloudFrontAccessLogsProps) {
    super(scope, id);
    const region = Stack.of(this).region;
    if (!region.startsWith('${') && region !== 'us-east-1') throw new Error('CloudFront log delivery must be created in us-east-1');
    const name = `${Stack.of(this).stackName}-cloudfront`.slice(0, 60);
    const source = new CfnDeliverySource(this, 'Source', { name, logType: 'ACCESS_LOGS', resourceArn: props.distributionArn });
    const destination = new CfnDeliveryDestination(this, 'Destination', {
      name,
      destinationResourceArn: props.bucketArn,
      outputFormat: 'parquet',
    });
    this.delivery = new CfnDelivery(this, 'Delivery', {
      deliverySourceName: source.name,
      deliveryDestinationArn: destination.attrArn,
      recordFields: [...CLOUDFRONT_LOG_FIELDS],
      s3SuffixPath: 'cloudfront/{DistributionId}/{yyyy}/{MM}/{dd}',
    });
    this.delivery.addResourceDependency(source);
  }
}
