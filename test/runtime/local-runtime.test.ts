import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RuntimeProcess, startRuntimeProcess } from '../helpers/runtime-process';

const documentClient = (port: string) =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );

/** Whether a TCP connection to host:port is accepted. */
async function accepts(host: string, port: string): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * One runtime started on a data directory serves the checks of what a start prints and where it
 * listens, then is stopped and started again on the same directory and ports, with HOST=0.0.0.0
 * (each start costs a JVM and the app's processes).
 */
describe('a runtime on a data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'career-restart-'));
  let first: RuntimeProcess;
  let second: RuntimeProcess | undefined;
  beforeAll(async () => {
    first = await startRuntimeProcess({ dataDir });
  });
  // the restart reuses the first runtime's ports: the second goes first, then the first's ports are free
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  it('prints the app, the mail viewer and the admin email when ready, and the mail viewer answers', async () => {
    await expect.poll(() => first.output()).toContain('Mail viewer:');
    expect(first.output()).toContain(`App:          ${first.appUrl}`);
    expect(first.output()).toContain(`Mail viewer:  ${first.sesUrl}`);
    expect(first.output()).toContain(`Admin email:  ${first.env.ADMIN_EMAIL}`);
    const viewer = await fetch(first.sesUrl);
    expect(viewer.status).toBe(200);
    const store = await fetch(`${first.sesUrl}/store`);
    expect(await store.json()).toHaveProperty('emails');
  });

  it('listens on 127.0.0.1 only: app, direct API, mail viewer and DynamoDB Local (docs/security.md#local-runtime-bound-to-127001)', async () => {
    for (const port of [first.env.PORT, first.env.DIRECT_API_PORT, first.env.SES_PORT, first.env.DYNAMODB_PORT]) {
      expect(await accepts('127.0.0.1', port)).toBe(true);
      // Any other address of this machine (on Linux all of 127/8 reaches it) is refused.
      expect(await accepts('127.0.0.2', port)).toBe(false);
    }
    expect(first.output()).not.toContain('reachable from the network');
  });

  it('keeps data written before a restart (DynamoDB Local persists in DATA_DIR)', async () => {
    const item = { pk: 'RESTART#probe', sk: 'PROBE', written_at: new Date().toISOString() };
    const client = documentClient(first.env.DYNAMODB_PORT);
    await client.send(new PutCommand({ TableName: 'career-program', Item: item }));
    client.destroy();
    expect(first.output()).toContain('Created table career-program');
    await first.stop();

    // Same three ports: stopping must have waited for DynamoDB Local, the mail server and the app to free them.
    const { PORT, DYNAMODB_PORT, SES_PORT } = first.env;
    second = await startRuntimeProcess({ dataDir, env: { PORT, DYNAMODB_PORT, SES_PORT, HOST: '0.0.0.0' } });
    const reader = documentClient(second.env.DYNAMODB_PORT);
    const read = await reader.send(new GetCommand({ TableName: 'career-program', Key: { pk: item.pk, sk: item.sk } }));
    reader.destroy();
    expect(read.Item).toEqual(item);
    expect(second.output()).not.toContain('Created table');
    expect((await fetch(`${second.appUrl}/api/health`)).status).toBe(200);
  });

  it('widens to every interface only when HOST asks, with a warning (the restart above asked)', async () => {
    if (!second) throw new Error('the restart did not start a runtime');
    const widened = second;
    expect(await accepts('127.0.0.2', widened.env.PORT)).toBe(true);
    expect(await accepts('127.0.0.2', widened.env.SES_PORT)).toBe(true);
    expect(await accepts('127.0.0.2', widened.env.DYNAMODB_PORT)).toBe(true);
    expect(widened.output()).toContain('Warning: HOST=0.0.0.0 makes the app, the mail viewer');
  });
});

it('exits non-zero with a clear message when the app port is taken', async () => {
  const { createServer } = await import('node:net');
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', () => resolve()));
  const port = String((blocker.address() as { port: number }).port);
  try {
    const result = await runStart({ PORT: port });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`Port ${port} (the app) is already in use`);
  } finally {
    blocker.close();
  }
});

it('exits non-zero with a clear message when no Java runtime is installed', async () => {
  const result = await runStart({ PATH: '/nonexistent' });
  expect(result.code).toBe(1);
  expect(result.output).toContain('DynamoDB Local needs a Java runtime');
});

/** Runs `infra/local/start.ts` as `npm start` would and collects its exit code and output. */
async function runStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const { spawn } = await import('node:child_process');
  const { freePort } = await import('../../infra/local/processes');
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
    env: {
      ...process.env,
      PORT: String(await freePort()),
      DYNAMODB_PORT: String(await freePort()),
      SES_PORT: String(await freePort()),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'career-fail-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { code, output };
}
