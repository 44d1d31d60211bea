import type { DynamoDBStreamEvent } from 'aws-lambda';
import { aggregateActivity } from '../lib/activity-aggregation';
import { capacityMeter } from '../lib/db';
import { logger } from '../lib/logger';
import { writeSignInAudits } from '../lib/sign-in-audit';
import { writeStreamedAuditRefs } from '../lib/audit-stream-refs';
import { resumeReminders } from '../program/notifications';

/**
 * The activity aggregator (DynamoDB Streams → this function, infra/constructs/activity-stream.ts):
 * one stream batch of account changes becomes the activity markers, one ADD per day counter item
 * and the search items' last-active day (functions/lib/activity-aggregation.ts); a learner whose
 * reminders were paused after 4 weeks away gets them back (coming back is the resume,
 * functions/program/reminder-pause.ts); a new session of a sign-in becomes its `auth.login` audit
 * entry, unless its account is gone or being erased (functions/lib/sign-in-audit.ts); an audit entry written inside a transaction gets the
 * references its request did not put (functions/lib/audit-stream-refs.ts). A failure throws:
 * Lambda splits the batch and retries it (every write is idempotent), then sends what still
 * fails to the dead-letter queue (docs/runbook.md#activity-totals-trailing).
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  capacityMeter.reset();
  const result = await aggregateActivity(event.Records, resumeReminders);
  const signIns = await writeSignInAudits(event.Records);
  const auditReferencesRepaired = await writeStreamedAuditRefs(event.Records);
  logger.info('activity batch', {
    records: event.Records.length,
    ...result,
    sign_ins: signIns,
    audit_references_repaired: auditReferencesRepaired,
    consumed_capacity: capacityMeter.snapshot(),
  });
};
