import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import { startRuntimeProcess } from '../helpers/runtime-process';

const documentClient = (port: string) =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );

it('keeps data written before a restart (DynamoDB Local persists in DATA_DIR)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'career-restart-'));
  const first = await startRuntimeProcess({ dataDir });
  const item = { pk: 'RESTART#probe', sk: 'PROBE', written_at: new Date().toISOString() };
  try {
    const client = documentClient(first.env.DYNAMODB_PORT);
    await client.send(new PutCommand({ TableName: 'career-program', Item: item }));
    client.destroy();
    expect(first.output()).toContain('Created table career-program');
  } finally {
    await first.stop();
  }

  // Same three ports: stopping must have waited for DynamoDB Local, the mail server and the app to free them.
  const { PORT, DYNAMODB_PORT, SES_PORT } = first.env;
  const second = await startRuntimeProcess({ dataDir, env: { PORT, DYNAMODB_PORT, SES_PORT } });
  try {
    const client = documentClient(second.env.DYNAMODB_PORT);
    const read = await client.send(new GetCommand({ TableName: 'career-program', Key: { pk: item.pk, sk: item.sk } }));
    client.destroy();
    expect(read.Item).toEqual(item);
    expect(second.output()).not.toContain('Created table');
    expect((await fetch(`${second.appUrl}/api/health`)).status).toBe(200);
  } finally {
    await second.stop();
  }
});

it('prints the app, the mail viewer and the admin email when ready, and the mail viewer answers', async () => {
  const runtime = await startRuntimeProcess();
  try {
    await expect.poll(() => runtime.output()).toContain('Mail viewer:');
    expect(runtime.output()).toContain(`App:          ${runtime.appUrl}`);
    expect(runtime.output()).toContain(`Mail viewer:  ${runtime.sesUrl}`);
    expect(runtime.output()).toContain(`Admin email:  ${runtime.env.ADMIN_EMAIL}`);
    const viewer = await fetch(runtime.sesUrl);
    expect(viewer.status).toBe(200);
    const store = await fetch(`${runtime.sesUrl}/store`);
    expect(await store.json()).toHaveProperty('emails');
  } finally {
    await runtime.stop();
  }
});

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

it('listens on 127.0.0.1 only: app, direct API, mail viewer and DynamoDB Local (docs/security.md#local-runtime-bound-to-127001)', async () => {
  const runtime = await startRuntimeProcess();
  try {
    for (const port of [runtime.env.PORT, runtime.env.DIRECT_API_PORT, runtime.env.SES_PORT, runtime.env.DYNAMODB_PORT]) {
      expect(await accepts('127.0.0.1', port)).toBe(true);
      // Any other address of this machine (on Linux all of 127/8 reaches it) is refused.
      expect(await accepts('127.0.0.2', port)).toBe(false);
    }
    expect(runtime.output()).not.toContain('reachable from the network');
  } finally {
    await runtime.stop();
  }
});

it('widens to every interface only when HOST asks, with a warning', async () => {
  const runtime = await startRuntimeProcess({ env: { HOST: '0.0.0.0' } });
  try {
    expect(await accepts('127.0.0.2', runtime.env.PORT)).toBe(true);
    expect(await accepts('127.0.0.2', runtime.env.SES_PORT)).toBe(true);
    expect(await accepts('127.0.0.2', runtime.env.DYNAMODB_PORT)).toBe(true);
    expect(runtime.output()).toContain('Warning: HOST=0.0.0.0 makes the app, the mail viewer');
  } finally {
    await runtime.stop();
  }
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
