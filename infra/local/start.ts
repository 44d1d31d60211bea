/**
 * `npm start` / `npm run dev`: the whole product on one machine (docs/architecture.md#3-running-on-one-machine).
 * Ctrl-C stops every child process; a missing Java runtime or a taken port exits non-zero with
 * a clear message.
 */
import { LocalRuntimeError } from './processes';
import { settingsFromEnv, startRuntime } from './runtime';

async function main() {
  const dev = process.argv.includes('--dev');
  const settings = { ...settingsFromEnv(), dev };
  const runtime = await startRuntime(settings);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await runtime.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const lines = [
    '',
    `  Career Program is running${dev ? ' (dev, hot reload)' : ''}`,
    `  App:          ${runtime.appUrl}`,
    `  Mail viewer:  ${runtime.mailUrl}`,
    `  Data:         ${settings.dataDir}`,
  ];
  if (runtime.reported.adminEmail) lines.push(`  Admin email:  ${runtime.reported.adminEmail}`);
  if (runtime.reported.adminPassword) lines.push(`  Admin password (shown once): ${runtime.reported.adminPassword}`);
  lines.push('  Press Ctrl-C to stop.', '');
  console.log(lines.join('\n'));
}

main().catch((error) => {
  if (error instanceof LocalRuntimeError) console.error(`\nCannot start: ${error.message}\n`);
  else console.error(error);
  process.exit(1);
});
