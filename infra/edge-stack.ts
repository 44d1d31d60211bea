import { Stack, type StackProps } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/**
 * L8 (docs/security.md): the WAF web ACL on the CloudFront distribution. A CLOUDFRONT-scope web
 * ACL must live in us-east-1, so it is a small companion stack the main stack references.
 *
 * Per-IP rate-based rules over 5-minute windows (WAF counts per address; the API's own limits
 * count IPv6 per /64): a generous ceiling on everything, a tighter one on the sign-in,
 * registration and reset calls. The per-account and per-IP business limits stay in
 * the API; these rules only keep floods from ever reaching it.
 */
export const WEB_ACL_METRIC = 'career-program-edge';
export const EDGE_RULES = {
  /** Any request: about 10 a second sustained per address. */
  allPerIp: { name: 'rate-all-per-ip', limit: 3000, metric: 'career-program-rate-all' },
  /** /api/auth/*: about 1 a second sustained per address. */
  authPerIp: { name: 'rate-auth-per-ip', limit: 300, metric: 'career-program-rate-auth' },
} as const;

export class EdgeSecurityStack extends Stack {
  readonly webAcl: CfnWebACL;
  /** For alarms (e.g. on blocked requests): the web ACL's name and CloudWatch metric names. */
  readonly webAclName: string;
  readonly metricNames: { webAcl: string; allPerIp: string; authPerIp: string };

  constructor(scope: Construct, id: string, props: StackProps = {}) {
    super(scope, id, props);
    this.webAclName = `${this.stackName}-web-acl`;
    this.metricNames = { webAcl: WEB_ACL_METRIC, allPerIp: EDGE_RULES.allPerIp.metric, authPerIp: EDGE_RULES.authPerIp.metric };
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName });
    const blockTooMany = { block: { customResponse: { responseCode: 429 } } };

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: this.webAclName,
      description: 'Career program: per-IP rate limits at the edge',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(WEB_ACL_METRIC),
      rules: [
        {
          name: EDGE_RULES.authPerIp.name,
          priority: 0,
          action: blockTooMany,
          visibilityConfig: visibility(EDGE_RULES.authPerIp.metric),
          statement: {
            rateBasedStatement: {
              limit: EDGE_RULES.authPerIp.limit,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: 'STARTS_WITH',
                  searchString: '/api/auth/',
                  textTransformations: [{ priority: 0, type: 'LOWERCASE' }],
                },
              },
            },
          },
        },
        {
          name: EDGE_RULES.allPerIp.name,
          priority: 1,
          action: blockTooMany,
          visibilityConfig: visibility(EDGE_RULES.allPerIp.metric),
          statement: { rateBasedStatement: { limit: EDGE_RULES.allPerIp.limit, evaluationWindowSec: 300, aggregateKeyType: 'IP' } },
        },
      ],
    });
  }
}
