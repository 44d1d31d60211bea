import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteItems } from '../lib/batch-items';
import { db, tableName } from '../lib/db';
import { logger } from '../lib/logger';
import { keys } from '../lib/table';
import { program } from './content';

export interface SeedResult {
  program_id: string;
  version: string;
  status: 'created' | 'updated' | 'unchanged';
  modules: number;
}

/**
 * Copies the bundled program content to the table (PROGRAM#<id> / META and MODULE#… items),
 * idempotently: the META item holds the content hash, and a run with the same hash writes
 * nothing. Module items that left the content are deleted. META is written last, so a run that
 * fails halfway is simply redone by the next one. Learner progress is keyed by module id and
 * is not touched: enrollments pick up the new content at their next read (learner-program.ts).
 */
export async function seedProgramContent(): Promise<SeedResult> {
  const content = program();
  const meta = await db().send(new GetCommand({ TableName: tableName(), Key: keys.programMeta(content.id), ConsistentRead: true }));
  const base = { program_id: content.id, version: content.hash, modules: content.modules.length };
  if (meta.Item?.content_hash === content.hash) return { ...base, status: 'unchanged' };

  const items = content.modules.map((module) => ({
    ...keys.programModule(content.id, module.week_number, module.position),
    type: 'program_module',
    program_id: content.id,
    module_id: module.module_id,
    slug: module.slug,
    title: module.title,
    summary: module.summary,
    week_number: module.week_number,
    week_title: module.week_title,
    position: module.position,
    order: module.order,
    sections: module.sections,
    tasks: module.tasks,
    content_hash: content.hash,
  }));
  const wanted = new Set(items.map((item) => item.sk));
  const existing = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `PROGRAM#${content.id}`, ':prefix': 'MODULE#' },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    }),
  );
  const stale = (existing.Items ?? []).filter((item) => !wanted.has(String(item.sk)));
  await batchWriteItems([
    ...items.map((Item) => ({ PutRequest: { Item } })),
    ...stale.map((item) => ({ DeleteRequest: { Key: { pk: item.pk as string, sk: item.sk as string } } })),
  ]);
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.programMeta(content.id),
        type: 'program',
        program_id: content.id,
        title: content.title,
        description: content.description,
        content_hash: content.hash,
        week_count: content.weeks.length,
        module_count: content.modules.length,
        module_ids: content.modules.map((module) => module.module_id),
        seeded_at: new Date().toISOString(),
      },
    }),
  );
  const result: SeedResult = { ...base, status: meta.Item ? 'updated' : 'created' };
  logger.info('program content seeded', { ...result });
  return result;
}
