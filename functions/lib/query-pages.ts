import { paginateQuery, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './db';

/** A Query on the table (TableName filled in). */
export type TableQuery = Omit<QueryCommandInput, 'TableName'>;
type Item = Record<string, unknown>;

/**
 * The pages of a Query, one request each, from `input.ExclusiveStartKey` on (lib-dynamodb's
 * paginator: each page's LastEvaluatedKey starts the next). Stop iterating to stop reading.
 */
export function queryPages(input: TableQuery) {
  return paginateQuery({ client: db() }, { TableName: tableName(), ...input });
}

/**
 * The items of a Query, reading at most until `cap` items are in hand; `truncated` when items
 * beyond them exist or may exist.
 */
export async function queryUpTo<T = Item>(input: TableQuery, cap = Number.POSITIVE_INFINITY): Promise<{ items: T[]; truncated: boolean }> {
  const items: T[] = [];
  for await (const page of queryPages(input)) {
    items.push(...((page.Items ?? []) as T[]));
    if (items.length > cap || (items.length === cap && page.LastEvaluatedKey)) return { items: items.slice(0, cap), truncated: true };
  }
  return { items, truncated: false };
}

/** Every item of a Query (for result sets bounded by the data model: one account, one program). */
export async function queryAll<T = Item>(input: TableQuery): Promise<T[]> {
  return (await queryUpTo<T>(input)).items;
}
