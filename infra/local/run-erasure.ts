/**
 * `npm run erasure`: runs the daily erasure job now against the running local stack (`npm start`)
 * and prints what it did: accounts soft-deleted longer ago than RETENTION_DAYS (default 30) are
 * hard-deleted (queued to the purge worker, which runs in this process), audited as done by the
 * system. Endpoints as `npm run reminders`. Running it twice the same day does nothing more.
 */
const env = process.env;
Object.assign(process.env, {
  STAGE: 'local',
  TABLE_NAME: env.TABLE_NAME || 'career-program',
  DYNAMODB_ENDPOINT: env.DYNAMODB_ENDPOINT || `http://127.0.0.1:${env.DYNAMODB_PORT || 8000}`,
  SES_ENDPOINT: env.SES_ENDPOINT || `http://127.0.0.1:${env.SES_PORT || 8005}`,
  AWS_REGION: env.AWS_REGION || 'us-east-1',
  // The job signs nothing; config() only insists that a local secret is set.
  SESSION_SECRET: env.SESSION_SECRET || 'erasure-job-local-run-signs-nothing-at-all',
  LOG_LEVEL: env.LOG_LEVEL || 'WARN',
});

async function main() {
  // The IAM twin first (clients are instrumented when created), then the app modules, which read
  // the environment once.
  await (await import('./iam/install')).installIamTwin();
  const [{ runErasure }, { drainLocalQueues }, { registerLocalWorkers }, { runAs }] = await Promise.all([
    import('../../functions/admin/erasure'),
    import('../../functions/lib/queue'),
    import('./background-work'),
    import('./iam/twin'),
  ]);
  // the purges run in this process, as the purge workers do in the cloud
  await registerLocalWorkers();
  const summary = await runAs('erasure', () => runErasure({ now: new Date() }));
  await drainLocalQueues();
  console.log(
    `Erasure: considered ${summary.considered}, purged through the purge queue ${summary.queued}, skipped ${summary.skipped}, failed ${summary.failed}`,
  );
  if (summary.failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`Erasure failed: ${error instanceof Error ? error.message : String(error)}`);
  console.error('Is the local stack running (npm start)?');
  process.exitCode = 1;
});
