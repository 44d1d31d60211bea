import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { adminSummary } from '../../functions/admin/summary';
import { listUsers } from '../../functions/admin/user-list';
import { capacityMeter, db, tableName } from '../../functions/lib/db';
import { keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { searchItems, userIndexKeys } from '../../functions/lib/users';
import { program } from '../../functions/program/content';

/**
 * The admin summary and the first users page must cost the same whatever the number of
 * accounts (DESIGN §4). Accounts are written in bulk with the same item builders insertUser and
 * enroll use (user item + index keys, email guard, search items, an enrollment), then the
 * consumed capacity of each read is measured at 10 and at 5,010 accounts.
 */
const content = program();

function accountItems(index: number): Record<string, unknown>[] {
  const now = new Date(Date.now() - index * 1000).toISOString();
  const user: UserRecord = {
    id: randomUUID(),
    email: `bench-${index}-${randomUUID().slice(0, 6)}@example.com`,
    email_lower: '',
    first_name: `Bench${index}`,
    last_name: `Learner${index}`,
    password_hash: 'not-a-real-hash',
    role: 'learner',
    verified: index % 3 !== 0,
    status: 'active',
    is_locked: false,
    session_version: 0,
    reminder_frequency: 'daily',
    created_at: now,
    updated_at: now,
    version: 1,
  };
  user.email_lower = user.email.toLowerCase();
  const percent = (index % 5) * 10;
  return [
    { ...keys.user(user.id), type: 'user', ...userIndexKeys(user), ...user },
    { ...keys.email(user.email), type: 'email', user_id: user.id },
    ...searchItems(user),
    {
      ...keys.enrollment(user.id, content.id),
      type: 'enrollment',
      id: randomUUID(),
      user_id: user.id,
      program_id: content.id,
      program_title: content.title,
      status: 'active',
      percent_complete: percent,
      completed_count: 0,
      module_count: content.modules.length,
      enrolled_at: now,
      updated_at: now,
      version: 1,
    },
  ];
}

async function seed(from: number, count: number) {
  const items = Array.from({ length: count }, (_, i) => accountItems(from + i)).flat();
  const batches: Record<string, unknown>[][] = [];
  for (let start = 0; start < items.length; start += 25) batches.push(items.slice(start, start + 25));
  const worker = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      let pending = batch.map((Item) => ({ PutRequest: { Item } }));
      while (pending.length) {
        const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
        pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  // the counters insertUser/enroll keep, in one shard
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.statsShard(0),
      UpdateExpression: 'ADD users_total :n, enrollments_total :n, modules_total :m',
      ExpressionAttributeValues: { ':n': count, ':m': count * content.modules.length },
    }),
  );
}

async function measure() {
  capacityMeter.reset();
  const summary = await adminSummary();
  const summaryCost = capacityMeter.snapshot();
  capacityMeter.reset();
  const page = await listUsers({});
  const pageCost = capacityMeter.snapshot();
  return { summary, page, summaryCost, pageCost };
}

const within10 = (a: number, b: number) => Math.abs(a - b) <= 0.1 * Math.max(a, b);

describe('admin read cost does not grow with the number of accounts', () => {
  it('summary and first users page: same consumed capacity at 10 and 5,000+ accounts', async () => {
    await seed(0, 10);
    const small = await measure();
    expect(small.summary.cards.total_users).toBe(10);
    expect(small.page.items).toHaveLength(10);
    // A users page costs what its rows cost: at 10 accounts page 1 has only 10 rows, so the page
    // is compared from the first size where it is full (26 accounts: 25 rows + 1 for has_next).
    await seed(10, 16);
    const fullPage = await measure();
    expect(fullPage.page.items).toHaveLength(25);

    const started = Date.now();
    await seed(26, 5000);
    const seedSeconds = (Date.now() - started) / 1000;
    const large = await measure();
    expect(large.summary.cards.total_users).toBe(5026);
    expect(large.page.total).toBe(5026);
    expect(large.page.items).toHaveLength(25);

    console.log(
      [
        `seeded 5,000 accounts in ${seedSeconds.toFixed(1)} s`,
        `summary     at 10: ${JSON.stringify(small.summaryCost)}   at 5,026: ${JSON.stringify(large.summaryCost)}`,
        `users page  at 10: ${JSON.stringify(small.pageCost)}   at 26: ${JSON.stringify(fullPage.pageCost)}   at 5,026: ${JSON.stringify(large.pageCost)}`,
      ].join('\n'),
    );
    expect(large.summaryCost.read).toBeGreaterThan(0);
    expect(within10(small.summaryCost.read, large.summaryCost.read)).toBe(true);
    expect(large.summaryCost.calls).toBe(small.summaryCost.calls);
    expect(large.pageCost.read).toBeGreaterThan(0);
    expect(within10(fullPage.pageCost.read, large.pageCost.read)).toBe(true);
    expect(large.pageCost.calls).toBe(fullPage.pageCost.calls);
  });
});
