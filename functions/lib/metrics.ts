import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRIC, METRICS_NAMESPACE, METRICS_SERVICE, type MetricName } from '../../shared/metric-names';
import { disableMetricsOutsideCloud } from './config';
import { logger } from './logger';

/**
 * Business metrics in CloudWatch embedded metric format (EMF): printed to stdout at the end of
 * each invocation, turned into metrics by CloudWatch Logs, no PutMetricData call and no IAM.
 * The alarms and the dashboard (infra/constructs/monitoring.ts) read these names; docs/runbook.md
 * explains each.
 *
 * One namespace and one fixed dimension (`service` = the product, not the function): every
 * function adds to the same series, so an alarm watches one metric, and no user id, email or IP
 * ever becomes a dimension (each dimension value is a separate, billed metric).
 *
 * Most are counted centrally: from the audit writer (functions/lib/audit.ts, every security
 * event and admin action) and the email sender; the rest where the event happens (rate limits,
 * codes, enrollments, completions, reminders, bounces).
 */
export { METRIC, METRICS_NAMESPACE, METRICS_SERVICE, type MetricName } from '../../shared/metric-names';

disableMetricsOutsideCloud();

const EMPTY_FLUSH = 'No application metrics to publish';

export const metrics = new Metrics({
  namespace: METRICS_NAMESPACE,
  serviceName: METRICS_SERVICE,
  // Most requests count nothing: the library's "nothing to publish" warning would be one log
  // line per request. Its other warnings go to the structured logger.
  logger: {
    trace: () => undefined,
    debug: () => undefined,
    info: (message: string) => logger.info(message),
    warn: (message: string) => {
      if (!String(message).startsWith(EMPTY_FLUSH)) logger.warn(message);
    },
    error: (message: string) => logger.error(message),
  },
});

/** Adds `value` to a counter of this invocation (flushed by `logMetrics` in http.ts or by the job). */
export function count(name: MetricName, value = 1): void {
  if (value > 0) metrics.addMetric(name, MetricUnit.Count, value);
}

/** Records a measured value of this invocation (a gauge, e.g. a backlog's age), even 0. */
export function gauge(name: MetricName, value: number): void {
  metrics.addMetric(name, MetricUnit.Count, value);
}

/** Audit action → metric: each security event and admin action is counted where it is audited. */
export function metricsOfAuditAction(action: string): MetricName[] {
  // the daily erasure after retention is a hard delete too (functions/admin/erasure.ts)
  if (action === 'system.user.hard_delete') return [METRIC.hardDeletes];
  if (action.startsWith('admin.')) {
    return action === 'admin.user.hard_delete' ? [METRIC.adminActions, METRIC.hardDeletes] : [METRIC.adminActions];
  }
  const byAction: Record<string, MetricName> = {
    'auth.register': METRIC.registrations,
    'auth.email_verified': METRIC.verifications,
    'auth.login': METRIC.signIns,
    'auth.login_failed': METRIC.failedSignIns,
    'auth.password_reset': METRIC.passwordResets,
    'user.role_changed': METRIC.adminActions,
  };
  return byAction[action] ? [byAction[action]] : [];
}
