import type { SeedStep } from '../local/seed-step';

/**
 * The data migrations of `npm run migrate`, in the order they run (infra/ops/migrations.ts). Each
 * is idempotent: a rerun finds nothing left to do. A step stays here until every stage has
 * recorded it, then it can be removed with the code it calls.
 */
export const migrationSteps: SeedStep[] = [
  {
    // Counts every enrollment written before the admin summary's module funnel existed
    // (docs/data-model.md "Module funnel"), walking the accounts through usersByStatus.
    name: 'backfill-funnel',
    run: async ({ log }) => {
      const { backfillFunnel } = await import('../../functions/program/funnel-backfill');
      const totals = await backfillFunnel(undefined, (sofar) =>
        log(`backfill-funnel: counted ${sofar.counted}, already counted ${sofar.already}, no enrollment ${sofar.none}`),
      );
      log(`backfill-funnel: ${totals.counted} enrollments counted, ${totals.already} already counted.`);
    },
  },
  {
    // Sets the unverified × locked / deleted counters to what the usersUnverified index holds.
    name: 'recount-unverified',
    run: async ({ log }) => {
      const { recountUnverified } = await import('../../functions/admin/unverified-recount');
      for (const line of await recountUnverified())
        log(
          `recount-unverified: ${line.field}: kept ${line.kept}, counted ${line.counted}, ${line.corrected ? `corrected by ${line.corrected}` : 'no correction'}`,
        );
    },
  },
  {
    // Gives the admin search items written before they carried status, verification and
    // `shadowed` those fields, so the search filters on them.
    name: 'backfill-search-items',
    run: async ({ log }) => {
      const { backfillSearchItems } = await import('../../functions/admin/search-items-backfill');
      const totals = await backfillSearchItems(undefined, (sofar) =>
        log(`backfill-search-items: accounts ${sofar.accounts}, items updated ${sofar.updated}, already current ${sofar.current}`),
      );
      log(`backfill-search-items: ${totals.accounts} accounts, ${totals.updated} search items updated, ${totals.current} already current.`);
    },
  },
  {
    // Moves the reminder index entries written before partitions carried the UTC hour of the
    // learner's local morning into those partitions: the hourly runs read only those.
    name: 'reminder-send-hours',
    run: async ({ log }) => {
      const { migrateReminderIndex } = await import('../../functions/program/reminder-index-migration');
      const totals = await migrateReminderIndex(new Date(), (sofar) =>
        log(`reminder-send-hours: moved ${sofar.moved}, removed ${sofar.removed}`),
      );
      log(`reminder-send-hours: ${totals.moved} entries moved to their send hour, ${totals.removed} taken out (reminders off).`);
    },
  },
  {
    // Puts every counted enrollment into the stalledAt index at the module the funnel counts it
    // in progress at (the admin's "stalled at" users list, docs/data-model.md "Module funnel").
    name: 'backfill-stalled-at',
    run: async ({ log }) => {
      const { backfillStalledAt } = await import('../../functions/program/stalled-at-backfill');
      const totals = await backfillStalledAt(undefined, (sofar) =>
        log(`backfill-stalled-at: set ${sofar.set}, cleared ${sofar.cleared}, already current ${sofar.current}`),
      );
      log(`backfill-stalled-at: ${totals.set} entries set, ${totals.cleared} cleared, ${totals.current} already current.`);
    },
  },
  {
    // Gives the audit entries written before the references theirs and takes their legacy index
    // attributes away: the audit screens' filters read only the references (functions/lib/audit.ts).
    name: 'audit-references',
    run: async ({ log }) => {
      const { migrateAuditEntries } = await import('../../functions/lib/audit-migration');
      const totals = await migrateAuditEntries(new Date(), (sofar) => {
        if (sofar.days % 30 === 0) log(`audit-references: ${sofar.days} days read, ${sofar.converted} entries converted`);
      });
      log(`audit-references: ${totals.converted} entries converted over ${totals.days} days.`);
    },
  },
];
