import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CfnStage, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination, PayloadFormatVersion } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ROUTES, type RouteGroup } from '../../shared/routes';

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
    latencyMs: '$context.responseLatency',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/**
 * Throttles (requests per second, burst), docs/security.md L8. A million learners, a tenth of
 * them on a given day, each making about 100 calls in a session, spread over a busy 8 hours with
 * a 5x peak: 1e5 * 100 / 28 800 s * 5 ≈ 1 700 rps, so the stage allows 2 000 (burst 4 000).
 * Sign-in is a few calls per learner per day: 1e5 * 2 / 28 800 * 5 ≈ 35 rps, so 100 leaves room.
 */
export const STAGE_THROTTLE = { rateLimit: 2000, burstLimit: 4000 };
export const ROUTE_THROTTLES: Record<string, { rateLimit: number; burstLimit: number }> = {
  'POST /api/auth/login': { rateLimit: 100, burstLimit: 200 },
  'POST /api/auth/verify-2fa': { rateLimit: 100, burstLimit: 200 },
  'POST /api/auth/register': { rateLimit: 50, burstLimit: 100 },
  'POST /api/auth/verify-email': { rateLimit: 50, burstLimit: 100 },
  'POST /api/auth/password-reset/request': { rateLimit: 20, burstLimit: 40 },
  'GET /api/auth/password-reset/validate': { rateLimit: 20, burstLimit: 40 },
  'POST /api/auth/password-reset/confirm': { rateLimit: 20, burstLimit: 40 },
  'POST /api/settings/password': { rateLimit: 20, burstLimit: 40 },
};

export interface AppHttpApiProps {
  /** The Lambda of each endpoint group; every route of shared/routes.ts goes to its group's one. */
  groups: Record<RouteGroup, IFunction>;
  /** Stage ceiling; default 100 requests per second, burst 200 (infra/stage.ts sizes it per stage). */
  throttle?: { rateLimit: number; burstLimit: number };
  /** Access-log retention; default one month. */
  logRetention?: RetentionDays;
}

/**
 * The HTTP API: one route per entry of the shared route table, each to its group's Lambda
 * (payload format 2.0). Authentication is the session cookie, checked in the Lambda's middy
 * chain, so the routes carry no API Gateway authorizer.
 */
export class AppHttpApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;

  constructor(scope: Construct, id: string, props: AppHttpApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', { createDefaultStage: false, description: 'Career program API' });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      // A ceiling sized for a million learners (docs/security.md L8; dev: smaller, infra/stage.ts);
      // the per-user and per-IP limits live in the handlers, tighter ceilings per route below.
      throttle: props.throttle ?? STAGE_THROTTLE,
      // One JSON object per request: Logs Insights reads every field without a parse pattern.
      // The route key, never the raw path: no ids or query strings in the log.
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: ACCESS_LOG_FORMAT },
    });

    // Per-route ceilings (L8): the unauthenticated calls that cost the most (scrypt, email).
    // RouteSettings is untyped JSON in the L1: CloudFormation's own (Pascal-case) names.
    (this.stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(
      Object.entries(ROUTE_THROTTLES).map(([key, limit]) => [
        key,
        { ThrottlingRateLimit: limit.rateLimit, ThrottlingBurstLimit: limit.burstLimit },
      ]),
    );

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
