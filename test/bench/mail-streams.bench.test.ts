import { describe } from 'vitest';
import { defineMailMix } from '../helpers/mail-mix';

/**
 * `npm run bench:mail-streams` (docs/scale-writes.md#two-mail-streams): 5,000 due learners
 * (BENCH_LEARNERS) mailed on the bulk stream at a new SES account's 14 mails/s (bulk: 7/s, about
 * 12 minutes) while 50 learners sign in, every one with their code.
 */
const LEARNERS = Number(process.env.BENCH_LEARNERS ?? 5_000);

describe('transactional and bulk mail at a new account’s send rate', () => {
  defineMailMix({ due: LEARNERS, signIns: 50, maxSendRate: 14, workers: 8, timeoutMs: 3 * 3600 * 1000 });
});
