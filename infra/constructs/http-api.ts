import { Fn, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  ApiMapping,
  CfnStage,
  DomainName,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ROUTES, type RouteGroup } from '../../shared/routes';
import { ROUTE_THROTTLES, STAGE_API_THROTTLES, type Throttle } from '../edge-behaviour';

const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    method: '$context.httpMethod',
    routeKey: '$context.routeKey',
    status: '$context.status',
    protocol: '$context.protocol',
    responseLength: '$context.responseLength',
    // the whole request, and the Lambda's share of it: the difference is API Gateway's own
    latencyMs: '$context.responseLatency',
    integrationLatencyMs: '$context.integrationLatency',
    // what the Lambda integration answered, or why it failed (a timeout, a crash) beside the 5xx
    integrationStatus: '$context.integrationStatus',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/** The throttles of infra/edge-behaviour.ts (docs/security.md#edge-and-api-throttles): prod's stage default, and per route. */
export const STAGE_THROTTLE = STAGE_API_THROTTLES.prod;
export { ROUTE_THROTTLES };

/**
 * The API's own domain, reachable only by our CloudFront distribution (docs/runbook.md#api-origin):
 * its name is public (Certificate Transparency logs list every certificate), so the domain
 * requires mutual TLS with a client certificate only CloudFront holds.
 */
export interface ApiOriginDomain {
  domainName: string;
  /** The domain's ACM certificate, in the stack's region. */
  certificateArn: string;
  /** `s3://bucket/key` of the truststore: the PEM of the private CA that issued CloudFront's client certificate, and nothing else. */
  truststoreUri: string;
  /** The truststore object's S3 version: naming a new one makes API Gateway read the file again. */
  truststoreVersion?: string;
  /** CloudFront's client certificate (imported into ACM in us-east-1), issued by the truststore's CA. */
  clientCertificateArn: string;
}

export interface AppHttpApiProps {
  /** The Lambda of each endpoint group; every route of shared/routes.ts goes to its group's one. */
  groups: Record<RouteGroup, IFunction>;
  /** Each route's default ceiling; default prod's (infra/stage.ts sizes it per stage). */
  throttle?: Throttle;
  /** Access-log retention; default one month. */
  logRetention?: RetentionDays;
  /**
   * The API's own domain behind mutual TLS: CloudFront reaches the API there, and the default
   * execute-api endpoint is turned off, so nobody calls the API around CloudFront and spends its
   * throttles and Lambda concurrency (docs/security.md#the-api-is-reachable-through-cloudfront-only).
   */
  customDomain?: ApiOriginDomain;
  /**
   * Without a domain of its own: serve on the execute-api address, CloudFront's origin then
   * (dev, infra/stage.ts). Ignored with a domain, where the address is always off.
   */
  executeApiEndpoint?: boolean;
}

/** `s3://bucket/key/of/file.pem` → its bucket and key. */
export function parseS3Uri(uri: string): { bucket: string; key: string } {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/(.+)$/.exec(uri);
  if (!match) throw new Error(`the truststore must be an s3://bucket/key URI, got "${uri}"`);
  return { bucket: match[1], key: match[2] };
}

/**
 * The HTTP API: one route per entry of the shared route table, each to its group's Lambda
 * (payload format 2.0). Authentication is the session cookie, checked in the Lambda's middy
 * chain, so the routes carry no API Gateway authorizer.
 */
export class AppHttpApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** One JSON line per request (route key, status, integration status and error, latencies). */
  readonly accessLogs: LogGroup;
  /** The host CloudFront forwards `/api/*` to: the API's own domain, else its execute-api host. */
  readonly originDomainName: string;
  /** With a custom domain: the regional host its DNS record (CNAME or alias) points at. */
  readonly regionalDomainName?: string;

  constructor(scope: Construct, id: string, props: AppHttpApiProps) {
    super(scope, id);
    if (!props.customDomain && !props.executeApiEndpoint)
      throw new Error(
        'The API needs an origin for CloudFront: its own domain behind mutual TLS (-c apiDomainName, -c apiCertificateArn, ' +
          '-c apiTruststoreUri, -c originClientCertificateArn; docs/runbook.md#api-origin), or the execute-api address ' +
          '(-c executeApiEndpoint=true, or -c stage=dev), which anyone can call around CloudFront and its WAF.',
      );
    this.api = new HttpApi(this, 'Api', {
      createDefaultStage: false,
      description: 'Career program API',
      // Off whenever the API has a domain: a caller there must present CloudFront's client certificate.
      disableExecuteApiEndpoint: Boolean(props.customDomain) || !props.executeApiEndpoint,
    });

    const accessLogs = (this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    }));
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      // Every route's default ceiling, sized for a million learners (docs/security.md#edge-and-api-throttles; dev:
      // smaller, infra/stage.ts); the per-user and per-IP limits live in the handlers, tighter
      // ceilings per route below.
      throttle: props.throttle ?? STAGE_THROTTLE,
      // One JSON object per request: Logs Insights reads every field without a parse pattern.
      // The route key, never the raw path: no ids or query strings in the log.
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: ACCESS_LOG_FORMAT },
    });

    // Per-route ceilings (docs/security.md#edge-and-api-throttles): the unauthenticated calls that cost the most (scrypt, email).
    // RouteSettings is untyped JSON in the L1: CloudFormation's own (Pascal-case) names.
    (this.stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(
      Object.entries(ROUTE_THROTTLES).map(([key, limit]) => [
        key,
        { ThrottlingRateLimit: limit.rateLimit, ThrottlingBurstLimit: limit.burstLimit },
      ]),
    );

    if (props.customDomain) {
      const truststore = parseS3Uri(props.customDomain.truststoreUri);
      const domain = new DomainName(this, 'Domain', {
        domainName: props.customDomain.domainName,
        certificate: Certificate.fromCertificateArn(this, 'Certificate', props.customDomain.certificateArn),
        securityPolicy: SecurityPolicy.TLS_1_2,
        // Mutual TLS: a client without a certificate of the truststore's CA (only CloudFront has
        // one) is refused at the connection, before any route is matched.
        mtls: {
          bucket: Bucket.fromBucketName(this, 'Truststore', truststore.bucket),
          key: truststore.key,
          version: props.customDomain.truststoreVersion,
        },
      });
      new ApiMapping(this, 'Mapping', { api: this.api, domainName: domain, stage: this.stage });
      this.originDomainName = props.customDomain.domainName;
      this.regionalDomainName = domain.regionalDomainName;
    } else {
      // apiEndpoint is https://<id>.execute-api.<region>.amazonaws.com: the origin wants the host alone.
      this.originDomainName = Fn.select(2, Fn.split('/', this.api.apiEndpoint));
    }

    const integrations = new Map<RouteGroup, HttpLambdaIntegration>();
    for (const route of ROUTES) {
      let integration = integrations.get(route.group);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${route.group}-integration`, props.groups[route.group], {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
          // One invoke permission per function for the whole API instead of one per route:
          // ~40 per-route statements would crowd the Lambda resource policy's size limit.
          scopePermissionToRoute: false,
        });
        integrations.set(route.group, integration);
      }
      this.api.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration });
    }

    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        "Authorization is the session cookie, verified in each Lambda's middy chain according to the route's access (public, session, admin) in shared/routes.ts; public routes such as login and register must accept anonymous calls.",
    });
  }
}
