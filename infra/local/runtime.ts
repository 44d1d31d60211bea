import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  assertPortFree,
  DEFAULT_HOST,
  isLoopback,
  reachableHost,
  startDynamoDbLocal,
  startSesLocal,
  stopChild,
  waitForPortFree,
  TEST_DATABASE_JVM_OPTIONS,
} from './processes';
import { sesLimitsFromEnv, type SesLimits } from './ses-limits';
import { ensureTable } from './table-setup';

/** The local runtime's settings: docs/architecture.md#3-running-on-one-machine's environment contract. */
export interface RuntimeSettings {
  port: number;
  /** The API without the local CloudFront in front (as its execute-api address): off unless set. */
  directApiPort?: number;
  dynamodbPort: number;
  sesPort: number;
  dataDir: string;
  dynamodbEndpoint?: string;
  sesEndpoint?: string;
  /** SES's send rate and 24-hour quota, enforced by the local SES (unused with `sesEndpoint`). */
  sesLimits?: SesLimits;
  tableName: string;
  /** Where the app, the mail viewer and DynamoDB Local listen: 127.0.0.1 unless HOST widens it. */
  host?: string;
  /** Keep DynamoDB Local's data in memory (tests). */
  inMemory?: boolean;
  dev?: boolean;
  staticDir?: string;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): RuntimeSettings {
  const port = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value <= 0 || value > 65535) throw new Error(`${name} must be a port number`);
    return value;
  };
  return {
    port: port('PORT', 3000),
    directApiPort: env.DIRECT_API_PORT ? port('DIRECT_API_PORT', 0) : undefined,
    dynamodbPort: port('DYNAMODB_PORT', 8000),
    sesPort: port('SES_PORT', 8005),
    dataDir: resolve(env.DATA_DIR || '.data'),
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    sesEndpoint: env.SES_ENDPOINT || undefined,
    sesLimits: sesLimitsFromEnv(env),
    tableName: env.TABLE_NAME || 'career-program',
    host: env.HOST || DEFAULT_HOST,
    staticDir: resolve('web/dist'),
  };
}

/** A stable local secret (`session-secret`, `device-audit-secret`, `origin-secret`), generated once into DATA_DIR (never committed). */
function localSecret(dataDir: string, name: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, name);
  if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

export interface RunningRuntime {
  appUrl: string;
  mailUrl: string;
  dynamodbEndpoint: string;
  reported: Record<string, string>;
  server: Server;
  stop: () => Promise<void>;
}

/**
 * Brings the product up on one machine: DynamoDB Local, the local SES, the table, the seeds,
 * and one HTTP server for the SPA and `/api` through the real Lambda handlers.
 */
export async function startRuntime(settings: RuntimeSettings, log: (line: string) => void = console.log): Promise<RunningRuntime> {
  const children: Array<{ child: ChildProcess; port: number }> = [];
  const closers: Array<() => Promise<void>> = [];
  // Waits for every child to exit and its port to be free, so a restart can reuse the ports.
  const stop = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    for (const { child, port } of children) await stopChild(child, port).catch(() => undefined);
  };
  const host = settings.host || DEFAULT_HOST;
  const local = reachableHost(host);
  if (!isLoopback(host)) {
    log(
      `Warning: HOST=${host} makes the app, the mail viewer (every reset link and code) and DynamoDB Local reachable from the network. ` +
        'Anyone who can reach them can take over any account, the administrator included. Unset HOST to listen on 127.0.0.1 only.',
    );
  }
  try {
    await assertPortFree(settings.port, 'the app', 'PORT', host);
    if (settings.directApiPort) await assertPortFree(settings.directApiPort, 'the direct API', 'DIRECT_API_PORT', host);
    let dynamodbEndpoint = settings.dynamodbEndpoint;
    if (!dynamodbEndpoint) {
      await assertPortFree(settings.dynamodbPort, 'DynamoDB Local', 'DYNAMODB_PORT', host);
      const dynamoDbLocal = await startDynamoDbLocal(
        settings.dynamodbPort,
        settings.inMemory ? undefined : join(settings.dataDir, 'dynamodb'),
        host,
        // an in-memory database lives for one run (the tests'): tuned for a short life
        settings.inMemory ? TEST_DATABASE_JVM_OPTIONS : [],
      );
      children.push({ child: dynamoDbLocal, port: settings.dynamodbPort });
      dynamodbEndpoint = `http://${local}:${settings.dynamodbPort}`;
    }
    let sesEndpoint = settings.sesEndpoint;
    if (!sesEndpoint) {
      await assertPortFree(settings.sesPort, 'the local SES / mail viewer', 'SES_PORT', host);
      const ses = await startSesLocal(settings.sesPort, host, settings.sesLimits);
      closers.push(ses.close);
      sesEndpoint = `http://${local}:${settings.sesPort}`;
    }
    const appUrl = `http://localhost:${settings.port}`;

    // The Lambda code reads its configuration from the environment once, as in the cloud.
    Object.assign(process.env, {
      STAGE: 'local',
      TABLE_NAME: settings.tableName,
      DYNAMODB_ENDPOINT: dynamodbEndpoint,
      SES_ENDPOINT: sesEndpoint,
      APP_URL: appUrl,
      AWS_REGION: process.env.AWS_REGION || 'us-east-1',
      SESSION_SECRET: process.env.SESSION_SECRET || localSecret(settings.dataDir, 'session-secret'),
      // Device cookies and audit hashes: a key of their own, so a new session key leaves them valid.
      DEVICE_AUDIT_SECRET: process.env.DEVICE_AUDIT_SECRET || localSecret(settings.dataDir, 'device-audit-secret'),
      // What the local CloudFront sends as the origin-verify header, and the API checks (docs/security.md#the-api-is-reachable-through-cloudfront-only).
      ORIGIN_SECRET: process.env.ORIGIN_SECRET || localSecret(settings.dataDir, 'origin-secret'),
      POWERTOOLS_SERVICE_NAME: 'career-program-local',
      LOG_LEVEL: process.env.LOG_LEVEL || 'WARN',
    });

    const dynamo = new DynamoDBClient({
      endpoint: dynamodbEndpoint,
      region: process.env.AWS_REGION,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const tableState = await ensureTable(dynamo, settings.tableName);
    dynamo.destroy();
    if (tableState === 'created') log(`Created table ${settings.tableName} and its indexes.`);

    // The IAM twin before any function module creates its AWS clients (infra/local/iam).
    await (await import('./iam/install')).installIamTwin({ log });
    const { runSeeds } = await import('./seed');
    const reported = await runSeeds({ log });
    // background work (purge continuations) in this process, as the SQS workers do in the cloud
    await (await import('./background-work')).registerLocalWorkers();
    // the activity counters from the table's stream, as the aggregator Lambda does in the cloud
    closers.push((await import('./activity-stream')).pollActivityStream(log));

    const [handlers, { createApiGateway }, { createApiServer, createDirectApiServer }] = await Promise.all([
      import('./group-handlers').then((m) => m.loadGroupHandlers()),
      import('./api-gateway'),
      import('./api-server'),
    ]);
    let fallback: Parameters<typeof createApiServer>[0]['fallback'];
    if (settings.dev) {
      const { createServer: createVite } = await import('vite');
      const vite = await createVite({ configFile: resolve('web/vite.config.ts'), server: { middlewareMode: true }, appType: 'spa' });
      closers.push(() => vite.close());
      fallback = (req, res) => vite.middlewares(req, res);
    }
    const api = createApiGateway({ handlers });
    const server = createApiServer({
      api,
      originSecret: process.env.ORIGIN_SECRET,
      staticDir: settings.staticDir,
      fallback,
      localConfig: { mail_viewer_url: sesEndpoint.replace('127.0.0.1', 'localhost') },
      hostWidened: !isLoopback(host),
    });
    await listen(server, settings.port, host, closers);
    if (settings.directApiPort) await listen(createDirectApiServer(api, !isLoopback(host)), settings.directApiPort, host, closers);
    return {
      appUrl,
      mailUrl: sesEndpoint.replace('127.0.0.1', 'localhost'),
      dynamodbEndpoint,
      reported,
      server,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Starts a server and registers its close (which waits for the port to be free). */
async function listen(server: Server, port: number, host: string, closers: Array<() => Promise<void>>): Promise<void> {
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen());
  });
  closers.push(() =>
    new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    }).then(() => waitForPortFree(port)),
  );
}
