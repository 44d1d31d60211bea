/**
 * `npm run reminders [-- --hour <0-23>]`: runs the reminder job now against the running local
 * stack (`npm start`) and prints what it sent: every learner due today whatever the hour of
 * their local morning, or with `--hour` the hourly run of that UTC hour only. Endpoints come from DYNAMODB_ENDPOINT / SES_ENDPOINT, else the local
 * ports (DYNAMODB_PORT 8000, SES_PORT 8005); TABLE_NAME defaults to 'career-program'.
 * A learner already reminded today is skipped, so running it twice sends nothing new. Then, as
 * the hourly schedule does in the cloud, it sends the security notices that had to wait
 * (functions/accounts/deferred-notices.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const env = process.env;
// The running app's signing secret (npm start keeps it in DATA_DIR): the reminders' unsubscribe
// links are signed with a key derived from it, so the app must be able to verify them.
const secretFile = join(resolve(env.DATA_DIR || '.data'), 'session-secret');
const localSecret = existsSync(secretFile) ? readFileSync(secretFile, 'utf8').trim() : undefined;
Object.assign(process.env, {
  STAGE: 'local',
  TABLE_NAME: env.TABLE_NAME || 'career-program',
  DYNAMODB_ENDPOINT: env.DYNAMODB_ENDPOINT || `http://127.0.0.1:${env.DYNAMODB_PORT || 8000}`,
  SES_ENDPOINT: env.SES_ENDPOINT || `http://127.0.0.1:${env.SES_PORT || 8005}`,
  AWS_REGION: env.AWS_REGION || 'us-east-1',
  APP_URL: env.APP_URL || `http://localhost:${env.PORT || 3000}`,
  SESSION_SECRET: env.SESSION_SECRET || localSecret || 'reminder-job-local-run-no-data-dir-secret',
  LOG_LEVEL: env.LOG_LEVEL || 'WARN',
});

/** `--hour <0-23>`: one UTC hour's run; absent: every learner due today. */
function hourOption(): number | undefined {
  const at = process.argv.indexOf('--hour');
  if (at < 0) return undefined;
  const hour = Number(process.argv[at + 1]);
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new Error('--hour takes a UTC hour, 0 to 23');
  return hour;
}

async function main() {
  const hour = hourOption();
  // The IAM twin first (clients are instrumented when created), then the app modules, which read
  // the environment once.
  await (await import('./iam/install')).installIamTwin();
  const [{ runReminders }, { drainDeferredNotices }, { runAs }] = await Promise.all([
    import('../../functions/program/reminders'),
    import('../../functions/accounts/deferred-notices'),
    import('./iam/twin'),
  ]);
  // The day's slices run here one after another, as the reminder workers run them in the cloud.
  const summary = await runAs('reminderWorker', () =>
    runReminders({
      now: new Date(),
      hour,
      onSent: (message) => console.log(`sent to ${message.to}: ${message.subject}`),
    }),
  );
  console.log(
    `Reminders: considered ${summary.considered}, sent ${summary.sent}, skipped ${summary.skipped}, failed ${summary.failed}` +
      ` (mail viewer: ${process.env.SES_ENDPOINT})`,
  );
  const notices = await runAs('reminders', () => drainDeferredNotices());
  console.log(`Deferred security notices: sent ${notices.sent}, still waiting ${notices.waiting}, dropped ${notices.dropped}`);
  if (summary.failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`Reminders failed: ${error instanceof Error ? error.message : String(error)}`);
  console.error('Is the local stack running (npm start)?');
  process.exitCode = 1;
});
