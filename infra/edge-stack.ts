import { ArnFormat, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ROUTES } from '../shared/routes';
import { stageSettings, type StageName } from './stage';

/**
 * docs/security.md#edge-and-api-throttles: the WAF web ACL on the CloudFront distribution. A CLOUDFRONT-scope web
 * ACL must live in us-east-1, so it is a small companion stack the main stack references.
 *
 * Per-address rate-based rules over 5-minute windows: a generous ceiling on everything, a tighter
 * one on the anonymous sign-in, registration, code and reset calls. WAF counts each address
 * apart and cannot group IPv6 addresses by /64, so the distribution answers IPv4 only unless
 * asked (infra/constructs/site.ts, `viewerIpv6`); the API's own per-address limits count IPv6
 * by /64 and /56. The per-account and per-IP business limits stay in the API; these rules keep
 * floods from reaching API Gateway's route throttles, which every learner shares.
 */
export const WEB_ACL_METRIC = 'career-program-edge';
export const EDGE_RULES = {
  /** Any request: about 10 a second sustained per address. */
  allPerIp: { name: 'rate-all-per-ip', limit: 3000, metric: 'career-program-rate-all' },
  /** The anonymous /api/auth/* calls (AUTH_RULE_SCOPE): about 1 a second sustained per address. */
  authPerIp: { name: 'rate-auth-per-ip', limit: 300, metric: 'career-program-rate-auth' },
} as const;

/**
 * What the per-address auth rule counts: every /api/auth/* request except the signed-in reads
 * (`GET /api/auth/me`, the sessions and passkeys lists), which a page load repeats and which a
 * classroom behind one NAT would otherwise spend its sign-ins on. The GETs it still counts are
 * the anonymous ones of shared/routes.ts (the reset link's check).
 */
export const AUTH_RULE_SCOPE = {
  prefix: '/api/auth/',
  countedGets: ROUTES.filter((r) => r.method === 'GET' && r.path.startsWith('/api/auth/') && r.access === 'public').map((r) => r.path),
} as const;

/** `/api/%61uth/`, `/api//auth/` and `/api/x/../auth/` reach the same route: compare the path decoded, normalized and lowercased. */
const PATH_TRANSFORMATIONS = [
  { priority: 0, type: 'URL_DECODE' },
  { priority: 1, type: 'NORMALIZE_PATH' },
  { priority: 2, type: 'LOWERCASE' },
];

const pathStartsWith = (searchString: string) => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint: 'STARTS_WITH',
    searchString,
    textTransformations: PATH_TRANSFORMATIONS,
  },
});

/** The auth rule's scope-down: under /api/auth/, and either not a GET or one of the counted GETs. */
function authScopeDown(): CfnWebACL.StatementProperty {
  if (AUTH_RULE_SCOPE.countedGets.some((path) => path.includes('{')))
    throw new Error('a counted GET under /api/auth/ has a path parameter: match it by its fixed prefix');
  const isGet = {
    byteMatchStatement: {
      fieldToMatch: { method: {} },
      positionalConstraint: 'EXACTLY',
      searchString: 'GET',
      textTransformations: [{ priority: 0, type: 'NONE' }],
    },
  };
  return {
    andStatement: {
      statements: [
        pathStartsWith(AUTH_RULE_SCOPE.prefix),
        { orStatement: { statements: [{ notStatement: { statement: isGet } }, ...AUTH_RULE_SCOPE.countedGets.map(pathStartsWith)] } },
      ],
    },
  };
}

/** The rule of the operator's IP set (docs/runbook.md#waf-rules-and-logs): first, blocking. */
export const BLOCKED_IPS_RULE = 'blocked-ips';

/** AWS managed rule groups, counted only: their matches show in the WAF logs and metrics, nothing is blocked. */
export const COUNTED_MANAGED_RULE_GROUPS = ['AWSManagedRulesAmazonIpReputationList', 'AWSManagedRulesKnownBadInputsRuleSet'] as const;

/**
 * Request headers the WAF logs never hold: the session cookie, any credential, and the Referer
 * (a request made from the reset, passkey-removal or unsubscribe page carries that page's
 * address, token and all, as its Referer).
 */
export const WAF_REDACTED_HEADERS = ['cookie', 'authorization', 'referer'] as const;

/**
 * What the WAF logs redact: the headers above and the whole query string, where the emailed
 * links and the API calls made from their pages carry their tokens (`?token=`) and the hard
 * delete its `confirm_email` (test/infra/secrets-in-logs.test.ts lists them). The path stays:
 * no token rides in one, and it is what a blocked request is looked up by.
 */
export const WAF_REDACTED_FIELDS: CfnLoggingConfiguration.FieldToMatchProperty[] = [
  { queryString: {} },
  ...WAF_REDACTED_HEADERS.map((name) => ({ singleHeader: { Name: name } })),
];

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
  /** Every request the web ACL saw (`aws-waf-logs-…`: WAF's required prefix), query string, cookie, authorization and Referer redacted. */
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
              scopeDownStatement: authScopeDown(),
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
      redactedFields: WAF_REDACTED_FIELDS,
    });
    logging.node.addDependency(this.wafLogs);
  }
}
