/**
 * `npm run smoke -- --stage dev`: the post-deploy check of what a synth cannot prove (docs/runbook.md
 * "Deploy"), with the operator's AWS credentials, in the profile's region:
 *   - health answers 200 through CloudFront, and the API's execute-api address refuses a direct call (403);
 *   - every alarm topic has a confirmed subscription;
 *   - a throwaway administrator signs in (password step, then a code), soft-deletes and hard-deletes
 *     a throwaway learner through the public API; both accounts are purged at the end, whatever failed.
 * `npm run smoke -- --site-url http://localhost:3000` runs the parts that need no AWS against the
 * local runtime (DYNAMODB_ENDPOINT and TABLE_NAME as for make-admin).
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ListSubscriptionsByTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { SmokeHttp } from './smoke-http';
import { cloudTarget, type SmokeTarget } from './smoke-target';

type Outcome = 'passed' | 'failed' | 'skipped';
const outcomes: Outcome[] = [];

/** Runs one check and prints it; `run` answers why it was skipped, or nothing. */
async function check(name: string, run: () => Promise<string | void>): Promise<boolean> {
  try {
    const skipped = await run();
    outcomes.push(skipped ? 'skipped' : 'passed');
    console.log(skipped ? `- ${name}: skipped (${skipped})` : `✓ ${name}`);
    return !skipped;
  } catch (error) {
    outcomes.push('failed');
    console.log(`✗ ${name}: ${(error as Error).message}`);
    return false;
  }
}

async function confirmedSubscriptions(target: SmokeTarget): Promise<string | undefined> {
  if (!target.alarmTopics.length) return 'local runtime: no alarm topics';
  for (const topic of target.alarmTopics) {
    const sns = new SNSClient({ region: topic.region });
    const { Subscriptions = [] } = await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn: topic.arn }));
    // an unconfirmed email subscription has no ARN yet: "PendingConfirmation"
    if (!Subscriptions.some((s) => s.SubscriptionArn?.startsWith('arn:')))
      throw new Error(`${topic.arn} has no confirmed subscription (deploy with -c alarmEmail=…, then confirm the email)`);
  }
  return undefined;
}

async function main() {
  const { values } = parseArgs({ options: { stage: { type: 'string' }, 'site-url': { type: 'string' } } });
  const target: SmokeTarget = values['site-url']
    ? { siteUrl: values['site-url'].replace(/\/$/, ''), alarmTopics: [] }
    : await cloudTarget(values.stage);
  console.log(`Smoke test of ${target.siteUrl}${target.tableName ? ` (table ${target.tableName})` : ''}`);
  // The domain code reads its settings once, on first use: set them before loading it.
  if (target.tableName) process.env.TABLE_NAME = target.tableName;
  process.env.SESSION_SECRET ??= 'unused-by-the-smoke-script-unused-by-the-smoke';
  process.env.LOG_LEVEL ??= 'ERROR';
  const accounts = await import('./smoke-accounts');

  const site = new SmokeHttp(target.siteUrl);
  await check('health through the front door', async () => {
    await site.expect(200, 'GET', '/api/health');
  });
  await check('the API refuses a call that bypasses CloudFront', async () => {
    if (!target.directApiUrl) return 'local runtime: no execute-api address';
    await new SmokeHttp(target.directApiUrl).expect(403, 'GET', '/api/health');
  });
  await check('alarm topics have a confirmed subscription', () => confirmedSubscriptions(target));

  const run = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const created: Array<Awaited<ReturnType<typeof accounts.createSmokeAccount>>> = [];
  try {
    const admin = await accounts.createSmokeAccount(run, 'admin');
    created.push(admin);
    const learner = await accounts.createSmokeAccount(run, 'learner');
    created.push(learner);
    for (const account of created) console.log(`  throwaway ${account.role}: ${account.email} (${account.id})`);
    const signedIn = await check('a throwaway administrator signs in', async () => {
      // step 1 for real (password check, code mailed to the SES simulator); step 2 with a code the script issued
      const step1 = await site.expect(200, 'POST', '/api/auth/login', { email: admin.email, password: admin.password });
      const challengeId = String(step1.challenge_id);
      const code = await accounts.knownSignInCode(admin, challengeId);
      await site.expect(200, 'POST', '/api/auth/verify-2fa', { email: admin.email, code, challenge_id: challengeId });
      const me = await site.expect(200, 'GET', '/api/auth/me');
      if (me.email !== admin.email) throw new Error(`/api/auth/me answered ${String(me.email)}`);
    });
    await check('the administrator soft-deletes and hard-deletes a throwaway learner', async () => {
      if (!signedIn) throw new Error('needs the sign-in above');
      await site.expect(200, 'POST', `/api/admin/users/${learner.id}/soft-delete`, { reason: 'smoke test' });
      await accounts.backdateDeletion(learner);
      const confirm = encodeURIComponent(learner.email);
      const answer = await site.request('DELETE', `/api/admin/users/${learner.id}?confirm_email=${confirm}`);
      if (answer.status !== 200 && answer.status !== 202)
        throw new Error(`hard delete answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      for (let polls = 0; (await site.expect(200, 'GET', `/api/admin/users/${learner.id}/hard-delete/status`)).status !== 'done'; polls++) {
        if (polls >= 60) throw new Error('the purge did not finish within 2 minutes');
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
      await site.expect(404, 'GET', `/api/admin/users/${learner.id}`);
    });
  } finally {
    await check('the throwaway accounts are gone', async () => {
      for (const account of created) await accounts.purgeSmokeAccount(account);
      const left = [];
      for (const account of created) if (await accounts.smokeAccountExists(account)) left.push(account.id);
      if (left.length) throw new Error(`still in the table: ${left.join(', ')}`);
    });
  }

  const failed = outcomes.filter((o) => o === 'failed').length;
  console.log(failed ? `${failed} check(s) failed.` : `All checks passed (${outcomes.filter((o) => o === 'skipped').length} skipped).`);
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(`smoke failed: ${(error as Error).message}`);
  process.exit(1);
});
