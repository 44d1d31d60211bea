import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPortFree } from '../../infra/local/processes';

/**
 * Runs the local runtime exactly as `npm start` does (a separate process, docs/architecture.md#3-running-on-one-machine's env
 * contract) on free ports, for end-to-end tests and restart tests.
 */
export interface RuntimeProcess {
  appUrl: string;
  /** The API without the local CloudFront in front (DIRECT_API_PORT), as its execute-api address in the cloud. */
  directApiUrl: string;
  sesUrl: string;
  dataDir: string;
  env: Record<string, string>;
  output: () => string;
  stop: () => Promise<void>;
}

export async function startRuntimeProcess(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<RuntimeProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'career-program-'));
  const env: Record<string, string> = {
    PORT: String(await freePort()),
    DYNAMODB_PORT: String(await freePort()),
    SES_PORT: String(await freePort()),
    DIRECT_API_PORT: String(await freePort()),
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'e2e-Admin-Password-2026',
    PASSWORD_HASH_LOG2N: '12',
    ...options.env,
  };
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const appUrl = `http://localhost:${env.PORT}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the runtime exited (${child.exitCode}):\n${output}`);
    const ok = await fetch(`${appUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the runtime did not become healthy:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    appUrl,
    directApiUrl: `http://localhost:${env.DIRECT_API_PORT}`,
    sesUrl: `http://localhost:${env.SES_PORT}`,
    dataDir,
    env,
    output: () => output,
    // Ctrl-C as a person would; the runtime waits for DynamoDB Local and the mail server itself.
    // The ports are checked here too so that a restart test never races a late exit.
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGINT');
        });
      }
      for (const port of [env.PORT, env.DYNAMODB_PORT, env.SES_PORT, env.DIRECT_API_PORT]) await waitForPortFree(Number(port));
    },
  };
}
