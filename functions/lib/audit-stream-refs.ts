import type { DynamoDBRecord } from 'aws-lambda';
import { auditRefItemsOf, putAuditItems } from './audit';
import { batchGetItems } from './batch-items';
import { forEachBounded } from './bounded';
import { imageText, type StreamImage } from './stream-image';
import { PK, STREAMED_REFERENCES } from './table';

/**
 * The references of audit entries written inside a transaction (`auditPuts`, functions/lib/audit.ts),
 * written off the request path: the transaction puts the entry alone, marked
 * `references: 'stream'`, and the activity aggregator (functions/jobs/activity-stream.ts) turns
 * each such INSERT of the table's stream into the entry's four references. A committed entry
 * always reaches the stream, and a batch that fails is delivered again (Lambda's retries), so no
 * reference is lost; the audit filters, the drawer's Audit tab and the export show the entry once
 * the stream is drained (seconds; the unfiltered log reads the entries themselves at once).
 *
 * The references are built from the entry as it is now (one consistent BatchGetItem for the
 * batch), not from the stream's image: a batch delivered again after a hard delete scrubbed the
 * entry writes the scrubbed fields, never the personal data back (docs/security.md). An entry
 * already gone (its TTL) gets none. Each reference is a plain put of the same item: writing
 * them twice is harmless.
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

/** Writes the references of the batch's transactional entries. Returns how many entries got them. */
export async function writeStreamedAuditRefs(records: readonly DynamoDBRecord[]): Promise<number> {
  const keys = streamedAuditEntryKeys(records);
  if (!keys.length) return 0;
  const entries = await batchGetItems(keys, { consistentRead: true });
  await forEachBounded(entries, 8, async (entry) => {
    await putAuditItems(auditRefItemsOf(entry));
  });
  return entries.length;
}
