import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { PAGE_SIZES } from '../../shared/constants';
import { db } from '../lib/db';

/**
 * Page parameters: `page` from 1 (anything else → 1, capped at 1000); `page_size` one of
 * 25/50/100, any other value → the default (the SPA only offers those three).
 */
export function pageParams(raw: { page?: string; page_size?: string }, defaultSize: number): { page: number; size: number } {
  const page = Number(raw.page);
  const size = Number(raw.page_size);
  return {
    page: Number.isInteger(page) && page >= 1 ? Math.min(page, 1000) : 1,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : defaultSize,
  };
}

/**
 * One page of a Query (index order) with an optional in-memory predicate. It reads just the
 * items of pages 1..N (+1 to know whether more exist): page N costs N pages of reads, never the
 * whole index. Items the predicate drops are read too, so filtered lists cost what they skip.
 */
export async function queryPage<T = Record<string, unknown>>(
  input: QueryCommandInput,
  page: number,
  size: number,
  keep: (item: Record<string, unknown>) => boolean = () => true,
): Promise<{ items: T[]; hasMore: boolean }> {
  const wanted = page * size + 1;
  const kept: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(new QueryCommand({ ...input, Limit: Math.max(wanted - kept.length, 10), ExclusiveStartKey: startKey }));
    for (const item of result.Items ?? []) if (kept.length < wanted && keep(item)) kept.push(item);
    startKey = result.LastEvaluatedKey;
  } while (startKey && kept.length < wanted);
  return { items: kept.slice((page - 1) * size, page * size) as T[], hasMore: kept.length > page * size };
}

/** Counts a Query's matches (Select COUNT: reads the matches, returns no items). */
export async function queryCount(input: QueryCommandInput): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey: startKey }));
    count += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return count;
}
