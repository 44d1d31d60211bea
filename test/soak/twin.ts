import type { ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { freePort, startDynamoDbLocal, stopChild } from '../../infra/local/processes';
import { ensureTable } from '../../infra/local/table-setup';
import type { ApiGateway } from '../../infra/local/api-gateway';
import type { IamTwin } from '../../infra/local/iam/twin';
import { ORIGIN_VERIFY_HEADER } from '../../shared/origin-verify';
import { startDynamoDbProxy, type DynamoDbProxy } from './dynamodb-proxy';
import { startSimSes, type SimSes } from './mail';
import type { SimClock } from './sim-clock';

/**
 * The local twin the simulation runs on, in this process: DynamoDB Local (in memory) behind the
 * fault proxy, the simulation's SES (the local SES's limits on the simulated clock), the table and
 * the seeds, the IAM twin, the in-process queue workers, and the local API Gateway (its route
 * table and throttles) in front of the same group Lambda handlers `npm start` serves. Requests are
 * handed to the gateway as the local server hands them, each from the simulated person's own
 * address; the local CloudFront in front (compression, static files) has nothing to add here.
 */
export const SOAK_APP_URL = 'http://localhost:3000';
const TABLE = 'career-program-soak';

export interface Twin {
  dynamo: DynamoDbProxy;
  ses: SimSes;
  iam?: IamTwin;
  /** The operator's direct view of the table (not held to any role): the oracle's final scan. */
  operatorDb: DynamoDBDocumentClient;
  invoke: (request: TwinRequest) => Promise<TwinResponse>;
  /**
   * A deploy: the API stops taking requests until those in flight are answered, the data
   * migrations run, and it comes back with fresh handlers' state. The process is the same one:
   * the code's module state survives (a real deploy starts new sandboxes).
   */
  redeploy: () => Promise<void>;
  /** What each deploy's migrations did. */
  deploys: () => ReadonlyArray<{ applied: string[]; skipped: string[] }>;
  stop: () => Promise<void>;
}

export interface TwinRequest {
  method: string;
  path: string;
  body?: unknown;
  ip: string;
  userAgent: string;
  cookies: Map<string, string>;
}

export interface TwinResponse {
  status: number;
  body: Record<string, unknown>;
  setCookies: string[];
  headers: Record<string, string | string[]>;
}

export async function startTwin(clock: SimClock, options: { sesRate: number; sesQuota: number }): Promise<Twin> {
  const port = await freePort();
  const dynamoDbLocal: ChildProcess = await startDynamoDbLocal(port, undefined, '127.0.0.1', []);
  const upstream = `http://127.0.0.1:${port}`;
  const dynamo = await startDynamoDbProxy(upstream);
  const ses = await startSimSes({ maxSendRate: options.sesRate, max24HourSend: options.sesQuota }, () => clock.now());
  Object.assign(process.env, {
    STAGE: 'local',
    TABLE_NAME: TABLE,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    SES_ENDPOINT: ses.endpoint,
    APP_URL: SOAK_APP_URL,
    AWS_REGION: 'us-east-1',
    SESSION_SECRET: 'soak-session-secret-soak-session-secret-soak',
    DEVICE_AUDIT_SECRET: 'soak-device-audit-secret-soak-device-audit',
    ORIGIN_SECRET: 'soak-origin-secret-soak-origin-secret-soak-origin',
    // the integration tests' scrypt cost: password hashing is CPU, not state, and a month of sign-ins must fit in minutes
    PASSWORD_HASH_LOG2N: '10',
    POWERTOOLS_SERVICE_NAME: 'career-program-soak',
    LOG_LEVEL: process.env.LOG_LEVEL || 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  const operatorClient = new DynamoDBClient({
    endpoint: upstream,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await ensureTable(operatorClient, TABLE);
  const operatorDb = DynamoDBDocumentClient.from(operatorClient);

  const iam = await (await import('../../infra/local/iam/install')).installIamTwin({ log: () => undefined });
  await (await import('../../infra/local/seed')).runSeeds({ log: () => undefined });
  await (await import('../../infra/local/background-work')).registerLocalWorkers();
  const [{ loadGroupHandlers }, { createApiGateway }] = await Promise.all([
    import('../../infra/local/group-handlers'),
    import('../../infra/local/api-gateway'),
  ]);
  const handlers = await loadGroupHandlers();
  let api: ApiGateway = createApiGateway({ handlers });
  let inFlight = 0;
  const deployed: Array<{ applied: string[]; skipped: string[] }> = [];
  let paused: Promise<void> | undefined;

  const invoke = async (request: TwinRequest): Promise<TwinResponse> => {
    while (paused) await paused;
    inFlight += 1;
    try {
      const url = new URL(request.path, SOAK_APP_URL);
      const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(request.body));
      const headers: Record<string, string> = {
        host: url.host,
        'user-agent': request.userAgent,
        [ORIGIN_VERIFY_HEADER]: process.env.ORIGIN_SECRET!,
        ...(request.body !== undefined ? { 'content-type': 'application/json', origin: SOAK_APP_URL } : {}),
        ...(request.cookies.size ? { cookie: [...request.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {}),
      };
      const req = Object.assign(Readable.from(body.length ? [body] : []), {
        method: request.method,
        url: url.pathname + url.search,
        headers,
        socket: { remoteAddress: request.ip },
      }) as unknown as IncomingMessage;
      const answer = await api(req, url);
      const text = answer.body.toString('utf8');
      let parsed: Record<string, unknown> = {};
      try {
        parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        parsed = { text };
      }
      const setCookie = answer.headers['set-cookie'];
      return {
        status: answer.status,
        body: parsed,
        setCookies: Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [],
        headers: answer.headers,
      };
    } finally {
      inFlight -= 1;
    }
  };

  const redeploy = async () => {
    let resume!: () => void;
    paused = new Promise<void>((resolve) => (resume = resolve));
    while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // the new version: the deploy procedure's data migrations (docs/runbook.md#deploy), then a
    // fresh API stage (its throttle buckets) and the configuration read again
    const [{ runMigrations }, { migrationSteps }, { resetConfigForTests }, { runAsOperator }] = await Promise.all([
      import('../../infra/ops/migrations'),
      import('../../infra/ops/migration-steps'),
      import('../../functions/lib/config'),
      import('../../infra/local/iam/twin'),
    ]);
    // the deploy procedure runs them with the operator's credentials, as no function
    deployed.push(await runAsOperator(() => runMigrations(migrationSteps, { log: () => undefined })));
    resetConfigForTests();
    api = createApiGateway({ handlers: await loadGroupHandlers() });
    paused = undefined;
    resume();
  };

  return {
    dynamo,
    ses,
    iam,
    operatorDb,
    invoke,
    redeploy,
    deploys: () => deployed,
    stop: async () => {
      operatorDb.destroy();
      await ses.close();
      await dynamo.close();
      await stopChild(dynamoDbLocal, port);
    },
  };
}
