import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';

type Key = { pk: string; sk: string };

/**
 * BatchGetItem in chunks of 100, sent in parallel (one round trip for a page's few chunks),
 * each retrying its unprocessed keys; returns the items found.
 */
export async function batchGet(keyList: Key[], projection?: string): Promise<Record<string, unknown>[]> {
  const chunks: Key[][] = [];
  for (let start = 0; start < keyList.length; start += 100) chunks.push(keyList.slice(start, start + 100));
  const names = projection?.split(',').map((name) => name.trim());
  const projected = names
    ? {
        ProjectionExpression: names.map((_, i) => `#p${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#p${i}`, name])),
      }
    : {};
  return (await Promise.all(chunks.map((chunk) => getChunk(chunk, projected)))).flat();
}

async function getChunk(keys: Key[], projected: object): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let pending = keys;
  for (let attempt = 0; pending.length && attempt < 6; attempt++) {
    if (attempt) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    const result = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ...projected } } }));
    found.push(...(result.Responses?.[tableName()] ?? []));
    pending = (result.UnprocessedKeys?.[tableName()]?.Keys as Key[] | undefined) ?? [];
  }
  if (pending.length) throw new Error('BatchGetItem left keys unprocessed');
  return found;
}
