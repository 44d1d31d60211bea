import { describe, expect, it } from 'vitest';
import { BREAKS } from './breaks';
import { QUICK } from './options';
import { buildReport, summary } from './report';
import { simulate } from './simulate';

/**
 * Every invariant can fail: one short run of a deliberately broken build (breaks.ts, each break a
 * bug on the wire in front of DynamoDB Local), and each break's invariant must report it. A
 * check that cannot fail would pass this run; this test would not.
 */
describe('the simulation with a broken build', () => {
  it('catches each break in its invariant', async () => {
    const names = Object.keys(BREAKS);
    const result = await simulate({ ...QUICK, accounts: 60, days: 4, faults: false, breaks: names, report: '' }, () => undefined);
    const report = buildReport(result);
    console.info(summary(report));
    for (const name of names) {
      const { invariant, bug } = BREAKS[name];
      expect(report.invariants[invariant].held, `${name} (${bug}) went unnoticed by ${invariant}`).toBe(false);
    }
    const details = (invariant: string) => report.violations.filter((v) => v.invariant === invariant).map((v) => v.detail);
    expect(details('audit').some((detail) => detail.includes('actor domain filter'))).toBe(true);
    expect(details('audit_read_your_writes').some((detail) => detail.includes("the user's Audit tab"))).toBe(true);
    expect(details('reminders').some((detail) => /got \d reminders on local day/.test(detail))).toBe(true);
    expect(details('erasure').some((detail) => detail.includes('EMAIL#'))).toBe(true);
    expect(details('learner_work').some((detail) => detail.includes('is not stored as acknowledged'))).toBe(true);
    expect(details('server_errors').some((detail) => detail.includes('with no fault injected'))).toBe(true);
    expect(details('counters').length).toBeGreaterThan(0);
  });
});
