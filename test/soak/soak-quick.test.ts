import { describe, expect, it } from 'vitest';
import { QUICK } from './options';
import { buildReport, summary, writeReport } from './report';
import { simulate } from './simulate';

/**
 * `npm run soak:quick` inside `npm test`: the month's simulation at a smaller size (docs/soak.md),
 * every fault kind struck, every invariant held. The report is written beside the run, as
 * `npm run soak` writes its own.
 */
describe('a few simulated days in production', () => {
  it('holds every invariant through every kind of fault', async () => {
    const result = await simulate({ ...QUICK, report: 'soak-report-quick.json' }, () => undefined);
    const report = buildReport(result);
    writeReport(report, 'soak-report-quick.json');
    console.info(summary(report));
    expect(report.violations, summary(report)).toEqual([]);
    for (const fault of report.faults) expect(fault.struck, `${fault.kind} never struck`).toBeGreaterThan(0);
    expect(report.held).toBe(true);
  });
});
