/**
 * Names of the business metrics (functions/lib/metrics.ts emits them; infra/constructs/monitoring.ts
 * alarms on and charts them): one namespace, one fixed `service` dimension. docs/runbook.md
 * explains each.
 */
export const METRICS_NAMESPACE = 'CareerProgram';
export const METRICS_SERVICE = 'career-program';

export const METRIC = {
  registrations: 'Registrations',
  verifications: 'Verifications',
  signIns: 'SignIns',
  failedSignIns: 'FailedSignIns',
  loginBackoffs: 'LoginBackoffs',
  lockouts: 'RateLimitLockouts',
  /** Refused sign-ins (throttled) and admin routes refused to learners after the first of the hour per key: counted, not audited. */
  refusalsNotAudited: 'RefusalsNotAudited',
  wrongCodes: 'WrongCodes',
  passwordResets: 'PasswordResets',
  enrollments: 'Enrollments',
  moduleCompletions: 'ModuleCompletions',
  remindersSent: 'RemindersSent',
  remindersFailed: 'RemindersFailed',
  emailsSent: 'EmailsSent',
  emailsFailed: 'EmailsFailed',
  emailsBounced: 'EmailsBounced',
  emailsComplained: 'EmailsComplained',
  /** The mail budget's open share is used up (quota or rate): an open mail (verification code, a mail beyond its allowance) was refused. */
  mailBudgetExhausted: 'MailBudgetExhausted',
  /** Security notices that could not go out when asked for: kept, the hourly job sends them. */
  securityNoticesDeferred: 'SecurityNoticesDeferred',
  /** Security notices lost: deferred past their waiting time, or neither sent nor deferrable. */
  securityNoticesDropped: 'SecurityNoticesDropped',
  adminActions: 'AdminActions',
  hardDeletes: 'HardDeletes',
  /** A purge step (hard delete, erasure) that failed: SQS redelivers it, after 5 tries it is a dead letter. */
  purgeStepsFailed: 'PurgeStepsFailed',
  /** Accounts the daily erasure could not start purging (they stay due). */
  erasuresFailed: 'ErasuresFailed',
  /** A day's reminder slice still unfinished when the next day began: dropped, its learners left unreminded that day. */
  reminderSlicesUnfinished: 'ReminderSlicesUnfinished',
  /** Audit references a request could not put after its commit: the table's stream writes them (seconds later). */
  auditReferencesDeferred: 'AuditReferencesDeferred',
  /** Gauge: days since the oldest soft-delete still waiting for erasure. */
  erasureBacklogDays: 'ErasureBacklogDays',
  /** Gauge: Σ |truth − stored| over every admin counter the daily reconciliation compares (0 when they all agree). */
  counterDrift: 'CounterDrift',
  /** Counter values the daily reconciliation corrected (a drift the previous run saw too). */
  counterCorrections: 'CounterCorrections',
} as const;
export type MetricName = (typeof METRIC)[keyof typeof METRIC];
