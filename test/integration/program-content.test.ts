import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/lib/db';
import { readStats } from '../../functions/lib/stats';
import { keys } from '../../functions/lib/table';
import { program, rawProgramContent, type ProgramContent } from '../../functions/program/content';
import { versionItem } from '../../functions/program/authoring/program-items';
import { seedProgramContent } from '../../functions/program/seed-content';
import { handler as seedJob } from '../../functions/jobs/seed';
import type { DashboardState } from '../../shared/program-types';
import { useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { finishModule } from './program-helpers';
import { runAs } from '../../infra/local/iam/twin';

// The jobs under test run as their own Lambda function's IAM role, as in the cloud (infra/local/iam/twin.ts).
const contentSeed = (...args: Parameters<typeof seedProgramContent>) => runAs('seed', () => seedProgramContent(...args));
const seedFunction = (...args: Parameters<typeof seedJob>) => runAs('seed', () => seedJob(...args));

const api = useApi();
const content = program();

const programItems = async () =>
  (
    await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `PROGRAM#${content.id}` },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

describe('program content seed', () => {
  it('stores the bundled content as version 1 on an empty table, then never touches a published version', async () => {
    // an older seed left per-module copies: they go
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { pk: `PROGRAM#${content.id}`, sk: 'MODULE#04#09', type: 'program_module' } }),
    );
    expect(await contentSeed()).toMatchObject({ status: 'created', modules: content.modules.length, version: 1 });
    const items = await programItems();
    expect(items.map((item) => String(item.sk)).sort()).toEqual(['META', keys.programVersion(content.id, 1).sk]);
    expect(items.find((item) => item.sk === 'META')).toMatchObject({
      title: '4-Week Career Program',
      published_version: 1,
      module_count: content.modules.length,
    });
    expect(items.find((item) => item.sk !== 'META')?.content).toEqual(JSON.parse(JSON.stringify(rawProgramContent)));

    expect(await seedFunction()).toMatchObject({ status: 'unchanged', version: 1 });

    // An administrator published version 2: a deploy (the seed) keeps it.
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: versionItem(rawProgramContent as ProgramContent, 2, {
          change_note: 'Edited.',
          published_at: new Date().toISOString(),
          published_by: null,
        }),
      }),
    );
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.programMeta(content.id),
        UpdateExpression: 'SET published_version = :two',
        ExpressionAttributeValues: { ':two': 2 },
      }),
    );
    expect(await contentSeed()).toMatchObject({ status: 'unchanged', version: 2 });
    expect((await programItems()).find((item) => item.sk === 'META')).toMatchObject({ published_version: 2 });
  });
});

describe('a content change', () => {
  it('keeps the learner progress and brings the enrollment aggregates and stats up to date on the next read', async () => {
    const user = await createTestUser();
    const client = api.client();
    await signIn(client, user);
    await client.post('/api/enroll');
    await finishModule(client, content.modules[0].slug);

    // As if the enrollment was written when the program had one module fewer and progress
    // existed on a module since removed from the content.
    const key = keys.enrollment(user.id, content.id);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET module_count = :count, percent_complete = :percent',
        ExpressionAttributeValues: { ':count': content.modules.length - 1, ':percent': 11.1 },
      }),
    );
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.moduleProgress(user.id, content.id, 'retired-module'), module_id: 'retired-module', status: 'completed' },
      }),
    );
    const before = await readStats();

    const state = await client.get<DashboardState>('/api/dashboard/state');
    const percent = Math.round((1 / content.modules.length) * 1000) / 10;
    expect(state.body.percent_complete).toBe(percent);
    expect(state.body.open_module?.slug).toBe(content.modules[1].slug);
    expect(state.body.grid[0].modules[0].state).toBe('completed');

    const enrollment = (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item!;
    expect(enrollment).toMatchObject({ module_count: content.modules.length, percent_complete: percent, completed_count: 1 });
    const after = await readStats();
    expect(after.modules_total - before.modules_total).toBe(1);
    expect(Math.round((after.enrollment_percent_sum - before.enrollment_percent_sum) * 10) / 10).toBe(
      Math.round((percent - 11.1) * 10) / 10,
    );
  });
});
