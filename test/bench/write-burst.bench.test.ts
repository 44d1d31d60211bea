import { request as httpRequest } from 'node:http';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { hashPassword } from '../../functions/accounts/passwords';
import { db } from '../../functions/lib/db';
import { retryCounters } from '../../functions/lib/retry';
import { program } from '../../functions/program/content';
import { percentComplete } from '../../functions/program/progress';
import { DEFAULT_SES_LIMITS } from '../../infra/local/ses-limits';
import type { AdminSummary } from '../../shared/admin-types';
import type { twoFactorChallenge } from '../../shared/api-schemas/auth';
import type { LearnerTask, ModulePage, TaskSave } from '../../shared/program-types';
import { codeIn, useApi, type JsonBody } from '../helpers/api';
import { sendMailThrough, useSesAccount } from '../helpers/ses';
import { createTestUser, signIn } from '../helpers/users';
import { doneBody } from '../integration/program-helpers';
import { drainActivityStream } from '../../infra/local/activity-stream';

/**
 * A burst at DynamoDB Local (docs/scale-writes.md): learners at once sign in for the first
 * time (password + emailed code), enroll and complete their first module, each from its own
 * address (the per-IP limits stay out of the way). The counters they share are write-sharded and
 * their transactions retried with jitter: no answer may be a 5xx, and the admin summary must be
 * exact once the activity stream is drained (the activity counters are written by its aggregator;
 * every other counter synchronously).
 *
 * DynamoDB Local runs transactions one after another and never reports a conflict, so the test
 * adds them: every 4th TransactWriteItems call is cancelled with `TransactionConflict` before it
 * reaches the database, as DynamoDB does under contention. The jittered retries must absorb them.
 */
const api = useApi();
/** `npm run bench:write-burst`: 200 learners (docs/scale-writes.md); BURST_LEARNERS sets another size. */
const LEARNERS = Number(process.env.BURST_LEARNERS ?? 200);
/**
 * The login codes go out at once: through an SES account sized for such a burst (a send rate
 * raised to one second's worth of them). A new account's 14 a second refuses most of them
 * (503 `email_unavailable`): test/integration/ses-limits.test.ts.
 */
const mail = useSesAccount({ ...DEFAULT_SES_LIMITS, maxSendRate: LEARNERS });
beforeAll(() => sendMailThrough(mail));
const PASSWORD = 'burst of learners at dawn';
const content = program();
const first = content.modules[0];

interface Reply<T = JsonBody> {
  status: number;
  body: T;
}

/** A minimal browser: its own source address (127.0.1.x) and its cookies. */
function learnerClient(index: number) {
  const localAddress = `127.0.${1 + Math.floor(index / 250)}.${1 + (index % 250)}`;
  let cookie = '';
  const jar = new Map<string, string>();
  const base = new URL(api.baseUrl);
  const send = <T = JsonBody>(method: string, path: string, body?: unknown) =>
    new Promise<Reply<T>>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = httpRequest(
        {
          host: base.hostname,
          port: base.port,
          path,
          method,
          localAddress,
          headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            // a browser's cookie jar: the session and the sign-in challenge's cookie ride along
            for (const set of res.headers['set-cookie'] ?? []) {
              const [pair] = set.split(';');
              const name = pair.slice(0, pair.indexOf('='));
              if (/max-age=0/i.test(set)) jar.delete(name);
              else jar.set(name, pair);
            }
            cookie = [...jar.values()].join('; ');
            const text = Buffer.concat(chunks).toString();
            const parsed: unknown = text ? JSON.parse(text) : undefined;
            resolve({ status: res.statusCode ?? 0, body: parsed as T });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return { send };
}

async function loginCodes(): Promise<Map<string, string>> {
  const response = await fetch(`${mail.endpoint}/store`);
  const store = (await response.json()) as { emails: Array<{ destination: { to: string[] }; body: { text?: string }; at: number }> };
  const codes = new Map<string, string>();
  for (const email of [...store.emails].sort((a, b) => a.at - b.at)) {
    codes.set(
      email.destination.to[0].toLowerCase(),
      codeIn({ subject: '', to: email.destination.to[0], text: email.body.text ?? '', html: '', at: email.at, headers: [] }),
    );
  }
  return codes;
}

describe(`${LEARNERS} simultaneous first logins, enrollments and module completions`, () => {
  it('answers no 5xx and leaves every admin summary figure exact', async () => {
    let transactions = 0;
    db().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand' && ++transactions % 4 === 0) {
          const items = (args.input as { TransactItems: unknown[] }).TransactItems;
          throw new TransactionCanceledException({
            message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
            $metadata: {},
            CancellationReasons: items.map((_, index) => ({ Code: index === items.length - 1 ? 'TransactionConflict' : 'None' })),
          });
        }
        return next(args);
      },
      { step: 'initialize', name: 'simulatedConflicts' },
    );
    const passwordHash = await hashPassword(PASSWORD);
    const admin = await createTestUser({ role: 'admin' });
    // registrations in a burst too (insertUser adds to the same counter shards)
    const learners = await Promise.all(Array.from({ length: LEARNERS }, () => createTestUser({ password_hash: passwordHash })));
    const clients = learners.map((_, index) => learnerClient(index));
    const statuses: number[] = [];
    const record = <T>(reply: Reply<T>, what: string) => {
      statuses.push(reply.status);
      expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(200);
      return reply;
    };

    // the password step for everyone (each mails a code)…
    const challenges = await Promise.all(
      learners.map(
        async (learner, index) =>
          record(
            await clients[index].send<z.infer<typeof twoFactorChallenge>>('POST', '/api/auth/login', {
              email: learner.email,
              password: PASSWORD,
            }),
            'login',
          ).body.challenge_id,
      ),
    );
    const codes = await loginCodes();

    // …then, all at once: first sign-in (the day's first activity), enrollment, first module done
    await Promise.all(
      learners.map(async (learner, index) => {
        const client = clients[index];
        record(
          await client.send('POST', '/api/auth/verify-2fa', {
            email: learner.email,
            code: codes.get(learner.email_lower),
            challenge_id: challenges[index],
          }),
          'verify-2fa',
        );
        record(await client.send('POST', '/api/enroll', {}), 'enroll');
        const page = record(await client.send<ModulePage>('GET', `/api/modules/${first.slug}`), 'module').body;
        let completed = false;
        for (const task of page.module.tasks.filter((t: LearnerTask) => t.required)) {
          completed =
            record(await client.send<TaskSave>('PUT', `/api/modules/${first.slug}/tasks/${task.task_id}`, doneBody(task)), 'task').body
              .completed_now || completed;
        }
        expect(completed).toBe(true);
      }),
    );
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(retryCounters.exhausted).toBe(0);
    expect(retryCounters.retries).toBeGreaterThanOrEqual(Math.floor(transactions / 4) - 1);
    db().middlewareStack.remove('simulatedConflicts');
    console.log(`write burst: ${statuses.length} requests, ${transactions} transactions, ${retryCounters.retries} jittered retries`);

    const adminClient = api.client();
    await signIn(adminClient, admin);
    await drainActivityStream();
    const summary = (await adminClient.get<AdminSummary>('/api/admin/summary')).body;
    const M = content.modules.length;
    expect(summary.cards).toEqual({
      total_users: LEARNERS + 1,
      total_enrollments: LEARNERS,
      avg_completion: Math.round(percentComplete(1, M) * 10) / 10,
      active_7d: LEARNERS,
      active_30d: LEARNERS,
      verification_rate: 1,
      week1_dropoff: 0,
      week1_measured: 0,
    });
    expect(summary.completion).toEqual({ aggregate_pct: Math.round((1 / M) * 1000) / 10 });
    expect(summary.series.actives_7d_daily.at(-1)?.count).toBe(LEARNERS);
  }, 240_000);
});
