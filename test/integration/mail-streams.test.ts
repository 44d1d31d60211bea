import { describe } from 'vitest';
import { defineMailMix } from '../helpers/mail-mix';

/**
 * Sign-ins while the reminders run (test/helpers/mail-mix.ts). `npm run bench:mail-streams` runs
 * the mix at 5,000 learners and a new account's 14 mails/s; here 200 learners at 16 mails/s
 * (bulk at most 8/s: 25 s of paced sends, waiting rather than work) keep the reminders sending
 * while 25 learners sign in. Eight workers hide
 * the per-slice reads, each at an eighth of the bulk share.
 */
describe('transactional and bulk mail under one enforced send rate', () => {
  defineMailMix({ due: 200, signIns: 25, maxSendRate: 16, workers: 8, timeoutMs: 180_000 });
});
