import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';

type Key = { pk: string; sk: string };

/** BatchGetItem in chunks of 100, retrying unprocessed keys; returns the items found. */
export async function batchGet(keyList: Key[], projection?: string): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (let start = 0; start < keyList.length; start += 100) {
    let pending: Key[] = keyList.slice(start, start + 100);
    for (let attempt = 0; pending.length && attempt < 6; attempt++) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      const result = await db().send(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: {
              Keys: pending,
              ...(projection
                ? {
                    ProjectionExpression: projection
                      .split(',')
                      .map((_, i) => `#p${i}`)
                      .join(', '),
                    ExpressionAttributeNames: Object.fromEntries(projection.split(',').map((name, i) => [`#p${i}`, name.trim()])),
                  }
                : {}),
            },
          },
        }),
      );
      found.push(...(result.Responses?.[tableName()] ?? []));
      pending = (result.UnprocessedKeys?.[tableName()]?.Keys as Key[] | undefined) ?? [];
    }
    if (pending.length) throw new Error('BatchGetItem left keys unprocessed');
  }
  return found;
}
