/**
 * The stack's defaults for what CDK context can change (infra/app.ts), in one place: the stack
 * is built from these and test/infra/doc-numbers.test.ts finds each in README.md and docs/.
 */
export const STACK_DEFAULTS = {
  /** Days between soft-delete and hard-delete readiness (RETENTION_DAYS). */
  retentionDays: 30,
  /** Days audit entries are kept (AUDIT_RETENTION_DAYS, DynamoDB TTL). */
  auditRetentionDays: 400,
  /** Percent of SES's send rate and 24-hour quota the reminders may take. */
  bulkSendShare: 50,
  /** Percent of SES's send rate and 24-hour quota kept for reserved mail (sign-in codes, reset links, notices within their allowances). */
  mailReservedShare: 20,
  /** SES's account send rate, emails a second: only the alarms use it (the workers ask SES). */
  sesSendRate: 14,
  /** Reminders due on a busy day: with the bulk send rate, the reminder queue's drain time. */
  expectedDailyReminders: 50_000,
  /** Reminder workers at once (the SQS event source's maximum concurrency). */
  reminderWorkers: 2,
  /** Purge workers at once (the purge queue's event source maximum concurrency): the pace of erasure and hard deletes. */
  purgeWorkers: 2,
  /** Timeout of the API functions, seconds. */
  apiTimeoutSeconds: 10,
  /** Timeout of the background workers (reminder slices, purge, erasure), minutes: Lambda's maximum. */
  workerTimeoutMinutes: 15,
  /** The account's monthly cost budget, US dollars (AWS Budgets): above the cost model's 100,000 learners. */
  monthlyBudgetUsd: 200,
  /**
   * On-demand maximum throughput, request units a second. The table: twice what prod's API
   * ceiling (2,000 requests/s) reads and writes at ~3 read and ~2 write units a request
   * (docs/cost-model.md); each index: its share, since every index write is also a table write.
   */
  tableMaxReadUnits: 12_000,
  tableMaxWriteUnits: 8_000,
  indexMaxReadUnits: 4_000,
  indexMaxWriteUnits: 4_000,
  /** CloudWatch Logs ingestion, GB an hour, that sustained for 3 hours is a runaway (ticket). */
  logIngestionGbPerHour: 1,
} as const;
