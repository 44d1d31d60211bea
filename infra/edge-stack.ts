import { ArnFormat, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { stageSettings, type StageName } from './stage';

/**
 * docs/security.md#edge-and-api-throttles: the WAF web ACL on the CloudFront distribution. A CLOUDFRONT-scope web
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

/** The rule of the operator's IP set (docs/runbook.md#waf-rules-and-logs): first, blocking. */
export const BLOCKED_IPS_RULE = 'blocked-ips';

/** AWS managed rule groups, counted only: their matches show in the WAF logs and metrics, nothing is blocked. */
export const COUNTED_MANAGED_RULE_GROUPS = ['AWSManagedRulesAmazonIpReputationList', 'AWSManagedRulesKnownBadInputsRuleSet'] as const;

/** Request headers the WAF logs never hold: the session cookie and any credential. */
export const WAF_REDACTED_HEADERS = ['cookie', 'authorization'] as const;

export interface EdgeMetricNames {
  webAcl: string;
  allPerIp: string;
  authPerIp: string;
}

/**
 * The CloudWatch metric names the web ACL and its rules publish under (the `WebACL` and `Rule`
 * dimensions of AWS/WAFV2). Metric names are account-wide: dev and prod in one account would
 * add up in one series, so dev's carry its stage; prod keeps the established names.
 */
export function edgeMetricNames(stage?: StageName): EdgeMetricNames {
  const name = stageSettings(stage).name;
  const suffix = name === 'prod' ? '' : `-${name}`;
  return {
    webAcl: `${WEB_ACL_METRIC}${suffix}`,
    allPerIp: `${EDGE_RULES.allPerIp.metric}${suffix}`,
    authPerIp: `${EDGE_RULES.authPerIp.metric}${suffix}`,
  };
}

export interface EdgeSecurityStackProps extends StackProps {
  /** `dev` or `prod` (default): infra/stage.ts. */
  stage?: StageName;
  /** The WAF logs' retention; default the stage's (infra/stage.ts). */
  logRetention?: RetentionDays;
  /**
   * ARN of a CLOUDFRONT-scope IP set the operator manages outside the stack (`-c blockedIpSetArn`):
   * requests from its addresses are blocked. Unset: no such rule.
   */
  blockedIpSetArn?: string;
}

export class EdgeSecurityStack extends Stack {
  readonly webAcl: CfnWebACL;
  /** The web ACL's name (WAF console); alarms go by its metric names. */
  readonly webAclName: string;
  /** For alarms (e.g. on blocked requests): what the ACL publishes in CloudWatch. */
  readonly metricNames: EdgeMetricNames;
  /** Every request the web ACL saw (`aws-waf-logs-…`: WAF's required prefix), cookie and authorization redacted. */
  readonly wafLogs: LogGroup;

  constructor(scope: Construct, id: string, props: EdgeSecurityStackProps = {}) {
    super(scope, id, props);
    this.webAclName = `${this.stackName}-web-acl`;
    this.metricNames = edgeMetricNames(props.stage);
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName });
    const blockTooMany = { block: { customResponse: { responseCode: 429 } } };

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: this.webAclName,
      description: 'Career program: per-IP rate limits at the edge',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(this.metricNames.webAcl),
      rules: [
        // Blocked first: an address the operator listed never counts against the rate limits.
        ...(props.blockedIpSetArn
          ? [
              {
                name: BLOCKED_IPS_RULE,
                priority: 0,
                action: { block: {} },
                visibilityConfig: visibility(`${this.metricNames.webAcl}-blocked-ips`),
                statement: { ipSetReferenceStatement: { arn: props.blockedIpSetArn } },
              },
            ]
          : []),
        {
          name: EDGE_RULES.authPerIp.name,
          priority: 1,
          action: blockTooMany,
          visibilityConfig: visibility(this.metricNames.authPerIp),
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
                  // `/api/%61uth/`, `/api//auth/` and `/api/x/../auth/` reach the same route: match them all
                  textTransformations: [
                    { priority: 0, type: 'URL_DECODE' },
                    { priority: 1, type: 'NORMALIZE_PATH' },
                    { priority: 2, type: 'LOWERCASE' },
                  ],
                },
              },
            },
          },
        },
        {
          name: EDGE_RULES.allPerIp.name,
          priority: 2,
          action: blockTooMany,
          visibilityConfig: visibility(this.metricNames.allPerIp),
          statement: { rateBasedStatement: { limit: EDGE_RULES.allPerIp.limit, evaluationWindowSec: 300, aggregateKeyType: 'IP' } },
        },
        // Counted first (docs/runbook.md#waf-rules-and-logs): switch a group to its own actions once
        // its matches in the WAF logs show no learner traffic.
        ...COUNTED_MANAGED_RULE_GROUPS.map((name, index) => ({
          name,
          priority: 3 + index,
          overrideAction: { count: {} },
          visibilityConfig: visibility(`${this.metricNames.webAcl}-${name}`),
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
        })),
      ],
    });

    const logGroupName = `aws-waf-logs-${this.stackName}`;
    this.wafLogs = new LogGroup(this, 'WafLogs', {
      logGroupName,
      retention: props.logRetention ?? stageSettings(props.stage).logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const logging = new CfnLoggingConfiguration(this, 'WafLogging', {
      resourceArn: this.webAcl.attrArn,
      // WAF wants the log group's ARN without the `:*` that LogGroup.logGroupArn carries
      logDestinationConfigs: [
        this.formatArn({ service: 'logs', resource: 'log-group', resourceName: logGroupName, arnFormat: ArnFormat.COLON_RESOURCE_NAME }),
      ],
      redactedFields: WAF_REDACTED_HEADERS.map((name) => ({ singleHeader: { Name: name } })),
    });
    logging.node.addDependency(this.wafLogs);
  }
}
