import { Duration } from 'aws-cdk-lib';
import { CfnMonitoringSubscription, type Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import type { SeverityTopics } from './alarm-severity';
import { operatorAlarm } from './monitoring';

const FIVE_MINUTES = Duration.minutes(5);

/** Thresholds of the CloudFront error-rate alarms (percent of viewer requests, 5-minute averages). */
export const CLOUDFRONT_ERROR_RATES = { serverErrors: 5, clientErrors: 30 } as const;
/** The origin latency (p95, milliseconds, three 5-minute periods in a row) past which the origins are slow. */
export const CLOUDFRONT_ORIGIN_LATENCY_MS = 3000;

/**
 * The site as viewers get it: CloudFront's error rates, which cover what the API's own metrics
 * never see (an origin that does not answer: 502/504, WAF's 429s, the SPA's files). CloudFront
 * publishes them in us-east-1 only, so these alarms live in a us-east-1 stack with topics there.
 */
export function addCloudFrontAlarms(
  scope: Construct,
  props: { distribution: Distribution; topics: SeverityTopics; runbookUrl?: string },
): void {
  const { distribution, topics, runbookUrl } = props;
  // CloudFront publishes with a `Region: Global` dimension beside the distribution's id; CDK's
  // metric helpers name the id alone, a series that never gets data.
  const rateOptions = {
    period: FIVE_MINUTES,
    statistic: 'Average',
    dimensionsMap: { DistributionId: distribution.distributionId, Region: 'Global' },
  };
  operatorAlarm(
    scope,
    'CloudFront5xxRate',
    distribution.metric5xxErrorRate(rateOptions),
    {
      threshold: CLOUDFRONT_ERROR_RATES.serverErrors,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      meaning: `More than ${CLOUDFRONT_ERROR_RATES.serverErrors} % of the site's requests answered 5xx at CloudFront in 2 of the last 3 five-minute periods: the API or the bucket does not answer (502/504) or fails.`,
      runbook: 'cloudfront-5xx-rate',
    },
    topics,
    runbookUrl,
  );
  // OriginLatency is one of CloudFront's additional metrics: published only once the
  // distribution's monitoring subscription is on (billed as CloudWatch custom metrics, docs/cost-model.md).
  new CfnMonitoringSubscription(scope, 'CloudFrontAdditionalMetrics', {
    distributionId: distribution.distributionId,
    monitoringSubscription: { realtimeMetricsSubscriptionConfig: { realtimeMetricsSubscriptionStatus: 'Enabled' } },
  });
  operatorAlarm(
    scope,
    'CloudFrontOriginLatency',
    new Metric({
      namespace: 'AWS/CloudFront',
      metricName: 'OriginLatency',
      dimensionsMap: rateOptions.dimensionsMap,
      statistic: 'p95',
      period: FIVE_MINUTES,
    }),
    {
      threshold: CLOUDFRONT_ORIGIN_LATENCY_MS,
      evaluationPeriods: 3,
      meaning: `The 95th percentile of CloudFront's origin latency (the API and the site bucket, time to the first byte from the origin) stayed above ${CLOUDFRONT_ORIGIN_LATENCY_MS / 1000} s for 15 minutes: pages and API calls are slow for every learner.`,
      runbook: 'cloudfront-origin-latency',
    },
    topics,
    runbookUrl,
  );
  operatorAlarm(
    scope,
    'CloudFront4xxRate',
    distribution.metric4xxErrorRate(rateOptions),
    {
      threshold: CLOUDFRONT_ERROR_RATES.clientErrors,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      meaning: `More than ${CLOUDFRONT_ERROR_RATES.clientErrors} % of the site's requests answered 4xx at CloudFront in 2 of the last 3 five-minute periods: WAF limits (429), the origin guard (403) or missing files.`,
      runbook: 'cloudfront-4xx-rate',
    },
    topics,
    runbookUrl,
  );
}
