import type { DynamoDBRecord } from 'aws-lambda';
import { putMissingAuditRefs } from './audit';
import { batchGetItems } from './batch-items';
import { imageText, type StreamImage } from './stream-image';
import { PK, STREAMED_REFERENCES } from './table';

/**
 * The repair path of the references of audit entries written inside a transaction (`auditPuts`,
 * functions/lib/audit.ts). The request puts them right after its commit; the entry is marked
 * `references: 'stream'`, and the activity aggregator (functions/jobs/activity-stream.ts) checks
 * each such INSERT of the table's stream: a reference the request did not put (it was stopped
 * between the commit and the puts, or a put failed) is written here. A committed entry always
 * reaches the stream and a batch that fails is delivered again (Lambda's retries), so no reference
 * is lost; past the stream's 24 hours, `npm run rebuild` writes them from the entries
 * (infra/ops/rebuild.ts).
 *
 * Everything is built from the entry as it is now (one consistent BatchGetItem for the batch),
 * not from the stream's image: a batch delivered again after a hard delete scrubbed the entry
 * writes the scrubbed fields, never the personal data back (docs/security.md). An entry already
 * gone (its TTL) gets none. The references already there are read (one eventually consistent
 * BatchGetItem, half a read unit each) and not written again: reading them is a fifth of the
 * price of putting them.
 */

/** The keys of the entries among stream records whose references the stream writes. */
export function streamedAuditEntryKeys(records: readonly DynamoDBRecord[]): Array<{ pk: string; sk: string }> {
  const found = [];
  for (const record of records) {
    if (record.eventName !== 'INSERT') continue;
    const image = record.dynamodb?.NewImage as StreamImage;
    const pk = imageText(image, 'pk');
    const sk = imageText(image, 'sk');
    if (!pk.startsWith(PK.audit) || imageText(image, STREAMED_REFERENCES.attribute) !== STREAMED_REFERENCES.value) continue;
    found.push({ pk, sk });
  }
  return found;
}

/** Writes the missing references of the batch's transactional entries. Returns how many references were missing. */
export async function writeStreamedAuditRefs(records: readonly DynamoDBRecord[]): Promise<number> {
  const keys = streamedAuditEntryKeys(records);
  if (!keys.length) return 0;
  const entries = await batchGetItems(keys, { consistentRead: true });
  return putMissingAuditRefs(entries);
}
