import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../functions/lib/config';
import { DEAD_LETTER_RETENTION_DAYS, VISIBILITY_TIMEOUTS_PER_WORKER_TIMEOUT } from '../../infra/constructs/work-queue';
import { ROUTE_THROTTLES } from '../../infra/edge-behaviour';
import { EDGE_RULES } from '../../infra/edge-stack';
import { DEFAULT_SES_LIMITS } from '../../infra/local/ses-limits';
import { STACK_DEFAULTS } from '../../infra/stack-defaults';
import { STAGES } from '../../infra/stage';

/**
 * The throttles, timeouts, retention periods and send rates README.md, docs/architecture.md and
 * docs/runbook.md state, against the values the stack is built from: each phrase is written from
 * the configuration, so a changed value without its doc (or a stale doc) fails here.
 */
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** The doc on one line, with `2 000` and `2,000` read as `2000`. */
const docText = (file: string) =>
  readFileSync(path.join(REPO_ROOT, file), 'utf8')
    .replace(/\s+/g, ' ')
    .replace(/(\d)[ ,\u202f](?=\d{3}\b)/g, '$1');

const DOCS = { readme: docText('README.md'), architecture: docText('docs/architecture.md'), runbook: docText('docs/runbook.md') };
const SECURITY = docText('docs/security.md');

/** How the docs spell a CloudWatch Logs retention. */
const RETENTION_WORDS: Record<number, string> = { 14: 'two weeks', 30: 'one month', 90: 'three months', 180: 'six months' };
const retentionWords = (days: number) => RETENTION_WORDS[days] ?? `${days} days`;

const prod = STAGES.prod;
const dev = STAGES.dev;
const local = readConfig({ SESSION_SECRET: 'x'.repeat(32) });

describe('numbers in the docs', () => {
  it('state the API throttles of both stages', () => {
    const [p, d] = [prod.apiThrottle, dev.apiThrottle];
    expect(DOCS.architecture).toContain(`prod ${p.rateLimit} rps, burst ${p.burstLimit}; dev ${d.rateLimit}/${d.burstLimit}`);
    expect(DOCS.runbook).toContain(`(${p.rateLimit} requests/s, burst ${p.burstLimit})`);
    expect(DOCS.runbook).toContain(`small throttle (${d.rateLimit}/${d.burstLimit})`);
  });

  it('state what the sign-in route takes, what learners need of it and what one address can spend of it', () => {
    const login = ROUTE_THROTTLES['POST /api/auth/login'];
    expect(ROUTE_THROTTLES['POST /api/auth/verify-2fa']).toEqual(login);
    expect(SECURITY).toContain(`\`POST /api/auth/login\` refills ${login.rateLimit} tokens a second and holds at most ${login.burstLimit}`);
    expect(SECURITY).toContain(`| ${login.rateLimit} rps × 3600 s = ${login.rateLimit * 3600} |`);
    // a tenth of the learners a day, 2 sign-ins each, over 8 busy hours, a 5× peak
    const peakPerHour = (learners: number) => ((learners * 0.1 * 2) / 8) * 5;
    expect(SECURITY).toContain(`10000 × 0.1 × 2 / 8 × 5 = ${peakPerHour(10_000)} an hour`);
    expect(SECURITY).toContain(`| ${peakPerHour(100_000)} an hour`);
    expect(SECURITY).toContain(
      `| ${peakPerHour(1_000_000)} an hour (≈ ${Math.round(peakPerHour(1_000_000) / 3600)} rps): ${Math.round((peakPerHour(1_000_000) / 3600 / login.rateLimit) * 100)} % of the route`,
    );
    expect(SECURITY).toContain(`| 1000000 an hour (≈ ${Math.round(1_000_000 / 3600)} rps): more than the route takes`);

    const { allPerIp, authPerIp } = EDGE_RULES;
    const perSecond = authPerIp.limit / 300;
    expect(SECURITY).toContain(`over 5 minutes — ${allPerIp.limit} requests for any path, ${authPerIp.limit} for the anonymous`);
    expect(SECURITY).toContain(
      `at most ${authPerIp.limit} counted \`/api/auth/*\` calls per 5 minutes, ${perSecond} a second sustained: ${(perSecond / login.rateLimit) * 100} % of the login route`,
    );
    expect(SECURITY).toContain(`at most ${allPerIp.limit} requests per 5 minutes on all paths, ${allPerIp.limit / 300} a second`);
    expect(SECURITY).toContain(`${authPerIp.limit / 2} sign-ins (${authPerIp.limit} counted calls) per 5 minutes`);
    // N addresses get N calls a second through; the route serves rateLimit of N + the learners' own
    const odds = (addresses: number, learnersRate: number) => `${login.rateLimit} / ${addresses + learnersRate}`;
    expect(SECURITY).toContain(`odds of ${login.rateLimit} / (N + the learners' rate)`);
    expect(SECURITY).toContain(`100 addresses turn away about a quarter of the sign-in calls (${odds(100 * perSecond, 35)})`);
    expect(SECURITY).toContain(`1000 addresses nine in ten (${odds(1000 * perSecond, 35)})`);
  });

  it('state the log retention of both stages', () => {
    expect(DOCS.runbook).toContain(`prod ${retentionWords(prod.logRetention)}, dev ${retentionWords(dev.logRetention)}`);
  });

  it("state the functions' timeouts and the work queues' visibility timeout", () => {
    const worker = STACK_DEFAULTS.workerTimeoutMinutes;
    expect(DOCS.architecture).toContain(`its function's ${STACK_DEFAULTS.apiTimeoutSeconds} s`);
    expect(DOCS.runbook).toContain(`(${worker} + ${worker * VISIBILITY_TIMEOUTS_PER_WORKER_TIMEOUT} minutes)`);
    expect(DOCS.runbook).toContain(`${VISIBILITY_TIMEOUTS_PER_WORKER_TIMEOUT} × the worker's timeout`);
  });

  it('state how long dead-letter queues keep a message', () => {
    expect(DOCS.runbook).toContain(`Messages are kept ${DEAD_LETTER_RETENTION_DAYS} days`);
  });

  it("state the reminders' send rate and the figures their queue-age alarm is built from", () => {
    const { expectedDailyReminders, sesSendRate, bulkSendShare, reminderWorkers } = STACK_DEFAULTS;
    expect(DOCS.runbook).toContain(
      `\`-c expectedDailyReminders\`, default ${expectedDailyReminders}; \`-c sesSendRate\`, default ${sesSendRate} a second; ` +
        `\`-c bulkSendShare\`, default ${bulkSendShare} %: ${(sesSendRate * bulkSendShare) / 100} a second`,
    );
    expect(DOCS.readme).toContain(`the reminders may take, default ${bulkSendShare})`);
    // the mail budget's reserved share (docs/security.md#outbound-mail-budget), the same locally
    expect(local.mailReservedShare).toBe(STACK_DEFAULTS.mailReservedShare);
    expect(local.bulkSendShare).toBe(bulkSendShare);
    expect(DOCS.readme).toContain(`security notices, default ${STACK_DEFAULTS.mailReservedShare};`);
    expect(DOCS.readme).toContain(`\`reminderWorkers\` (default ${reminderWorkers};`);
  });

  it('state the retention and audit-retention defaults the stack and the local runtime share', () => {
    expect(local.retentionDays).toBe(STACK_DEFAULTS.retentionDays);
    expect(local.auditRetentionDays).toBe(STACK_DEFAULTS.auditRetentionDays);
    expect(DOCS.readme).toContain(`\`auditRetentionDays\` (default ${STACK_DEFAULTS.auditRetentionDays})`);
  });

  it('state the cost guardrails with their defaults', () => {
    const d = STACK_DEFAULTS;
    expect(DOCS.runbook).toContain(`| ${d.monthlyBudgetUsd} USD |`);
    expect(DOCS.runbook).toContain(
      `| table ${d.tableMaxReadUnits} read and ${d.tableMaxWriteUnits} write units/s, each index ${d.indexMaxReadUnits} read and ${d.indexMaxWriteUnits} write units/s |`,
    );
    expect(DOCS.runbook).toContain(`| ${d.logIngestionGbPerHour} GB an hour |`);
    expect(DOCS.runbook).toContain(`more than ${d.logIngestionGbPerHour} GB an hour for 3 hours`);
    // the table's ceilings are twice what the API throttle asks at ~3 read and ~2 write units a request
    expect(d.tableMaxReadUnits).toBe(2 * 3 * prod.apiThrottle.rateLimit);
    expect(d.tableMaxWriteUnits).toBe(2 * 2 * prod.apiThrottle.rateLimit);
  });

  it("state docs/cost-model.md's monthly cost per learner count in the runbook's cost section", () => {
    const costModel = docText('docs/cost-model.md');
    const totals = [...costModel.matchAll(/\| (\d+) \| (?:[^|]*\|){7} (\$\d+(?:\.\d+)?) \|/g)].map((m) => [m[1], m[2]]);
    expect(totals.map(([learners]) => learners)).toEqual(['10000', '100000', '1000000']);
    for (const [learners, total] of totals) expect(DOCS.runbook).toContain(`| ${learners} | ${total} |`);
  });

  // Every row of an environment table, in every doc: one stale copy fails as well.
  it.each([
    ['RETENTION_DAYS', STACK_DEFAULTS.retentionDays],
    ['AUDIT_RETENTION_DAYS', STACK_DEFAULTS.auditRetentionDays],
    ['SES_MAX_SEND_RATE', DEFAULT_SES_LIMITS.maxSendRate],
    ['SES_MAX_24_HOUR_SEND', DEFAULT_SES_LIMITS.max24HourSend],
  ])('state the default of %s in every environment table', (name, value) => {
    const rows = Object.values(DOCS).flatMap((text) => [...text.matchAll(new RegExp(`\\| \`${name}\` \\| ([^|]*?) \\|`, 'g'))]);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((row) => row[1])).toEqual(rows.map(() => String(value)));
  });
});
