/**
 * `npm run soak` options (docs/soak.md): `--seed N`, `--accounts N`, `--days N`, `--quick`,
 * `--no-faults`, `--outage-hours N`, `--concurrency N`, `--retention-days N`, `--report <file>`,
 * `--break <name>` (breaks.ts: a deliberately broken build, to see its invariant fail).
 */
export interface SoakOptions {
  seed: number;
  accounts: number;
  days: number;
  faults: boolean;
  /** Length of the stream-processor outage: longer than the stream's 24 hours in a full run. */
  outageHours: number;
  /** Learner actions in flight at once within a slot. */
  concurrency: number;
  /** RETENTION_DAYS of the run: short, so that erasures happen within the simulated time. */
  retentionDays: number;
  report: string;
  quick: boolean;
  /** Deliberate breaks of the product (breaks.ts): only to show that an invariant catches them. */
  breaks: string[];
}

export const FULL: Omit<SoakOptions, 'report'> = {
  seed: 1,
  accounts: 2000,
  days: 30,
  faults: true,
  outageHours: 30,
  concurrency: 8,
  retentionDays: 7,
  quick: false,
  breaks: [],
};
export const QUICK: Omit<SoakOptions, 'report'> = { ...FULL, accounts: 120, days: 5, outageHours: 26, retentionDays: 1, quick: true };

export function parseOptions(argv: readonly string[]): SoakOptions {
  const quick = argv.includes('--quick');
  const base = quick ? QUICK : FULL;
  const number = (name: string, fallback: number) => {
    const at = argv.indexOf(name);
    if (at < 0) return fallback;
    const value = Number(argv[at + 1]);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} takes a whole number, got "${argv[at + 1]}"`);
    return value;
  };
  const text = (name: string, fallback: string) => {
    const at = argv.indexOf(name);
    return at < 0 ? fallback : (argv[at + 1] ?? fallback);
  };
  const options: SoakOptions = {
    ...base,
    seed: number('--seed', base.seed),
    accounts: number('--accounts', base.accounts),
    days: number('--days', base.days),
    faults: !argv.includes('--no-faults'),
    outageHours: number('--outage-hours', base.outageHours),
    concurrency: number('--concurrency', base.concurrency),
    retentionDays: number('--retention-days', base.retentionDays),
    report: text('--report', quick ? 'soak-report-quick.json' : 'soak-report.json'),
    breaks: argv.flatMap((arg, index) => (argv[index - 1] === '--break' ? [arg] : [])),
  };
  if (options.days < 3) throw new Error('--days must be at least 3 (a day to register, a day of faults, a day to recover)');
  if (options.accounts < 10) throw new Error('--accounts must be at least 10');
  return options;
}
