import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteItems } from '../lib/batch-items';
import { db, tableName } from '../lib/db';
import { logger } from '../lib/logger';
import { keys, SK } from '../lib/table';
import { programMetaFields, versionItem } from './authoring/program-items';
import { program, rawProgramContent, type ProgramContent } from './content';
import { currentDate } from '../lib/clock';

export interface SeedResult {
  program_id: string;
  /** The published version after the run. */
  version: number;
  status: 'created' | 'unchanged';
  modules: number;
}

/**
 * Stores the bundled program content as version 1 when the table has no published version yet,
 * and does nothing otherwise: from then on the program belongs to its administrators
 * (docs/product.md#program-authoring), and a deploy never overwrites what they published.
 * Both writes are conditional, so a run that fails halfway is simply redone by the next one.
 * The per-module copies an older seed wrote (MODULE#…) are removed.
 */
export async function seedProgramContent(now = currentDate()): Promise<SeedResult> {
  const content = program();
  const meta = await db().send(new GetCommand({ TableName: tableName(), Key: keys.programMeta(content.id), ConsistentRead: true }));
  const published = meta.Item?.published_version as number | undefined;
  if (published !== undefined)
    return { program_id: content.id, version: published, status: 'unchanged', modules: Number(meta.Item?.module_count) };

  const raw = rawProgramContent as ProgramContent;
  const at = now.toISOString();
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: versionItem(raw, 1, { change_note: 'The bundled program content.', published_at: at, published_by: null }),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    // left by a run that failed before META: the same bundled content
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...meta.Item, ...programMetaFields(raw, 1, at) },
      ConditionExpression: 'attribute_not_exists(published_version)',
    }),
  );
  await removeModuleCopies(content.id);
  const result: SeedResult = { program_id: content.id, version: 1, status: 'created', modules: content.modules.length };
  logger.info('program content seeded', { ...result });
  return result;
}

async function removeModuleCopies(programId: string) {
  const existing = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.programMeta(programId).pk, ':prefix': SK.legacyModule },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    }),
  );
  const stale = (existing.Items ?? []).map((item) => ({ DeleteRequest: { Key: { pk: item.pk as string, sk: item.sk as string } } }));
  await batchWriteItems(stale);
}
