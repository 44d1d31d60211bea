import type { DynamoDBRecord } from 'aws-lambda';
import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../functions/admin/account-items';
import { ANONYMOUS, anonymiseEntries } from '../../functions/admin/audit-anonymisation';
import { handler } from '../../functions/jobs/activity-stream';
import { auditPuts, auditRefPartitions, auditEntryOf, type AuditInput } from '../../functions/lib/audit';
import { db, tableName } from '../../functions/lib/db';
import { queryAll } from '../../functions/lib/query-pages';
import { auditRefPartition, STREAMED_REFERENCES } from '../../functions/lib/table';
import { drainActivityStream } from '../../infra/local/activity-stream';
import { runAs } from '../../infra/local/iam/twin';
import { ApiClient, useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';

/**
 * An audit entry written inside the transaction of the change it records gets its references
 * from the table's stream (functions/lib/audit-stream-refs.ts): the entry is in the day's log at
 * once, the filters find it once the stream is drained, and a batch delivered again writes the
 * same references, from the entry as it is now.
 */
const api = useApi();

const refsOf = (partition: string) =>
  queryAll<Item>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': partition } });

/** Puts an entry as a transaction does, and returns its stored item and its stream record (as the stream delivers it). */
async function transactionalEntry(input: AuditInput) {
  const puts = auditPuts(input);
  await db().send(new TransactWriteCommand({ TransactItems: puts }));
  const item = puts[0].Put.Item;
  const record: DynamoDBRecord = {
    eventName: 'INSERT',
    dynamodb: {
      Keys: { pk: { S: String(item.pk) }, sk: { S: String(item.sk) } },
      NewImage: {
        pk: { S: String(item.pk) },
        sk: { S: String(item.sk) },
        [STREAMED_REFERENCES.attribute]: { S: STREAMED_REFERENCES.value },
      },
    },
  };
  return { item, record, partitions: auditRefPartitions(auditEntryOf(item)) };
}

const deliver = (records: DynamoDBRecord[]) => runAs('activityStream', () => handler({ Records: records }));

describe('audit references written by the stream', () => {
  it("puts an admin action's entry alone in its transaction; its four references follow from the stream", async () => {
    const admin = await createTestUser({ role: 'admin' });
    const learner = await createTestUser();
    // a client that does not drain the stream before it reads the log (as an admin's browser)
    const client = new ApiClient(api.baseUrl);
    await signIn(client, admin);
    expect((await client.post(`/api/admin/users/${learner.id}/lock`, {})).status).toBe(200);
    type Page = { items: Array<{ action: string; entity_id: string }> };
    const byEntity = () => client.get<Page>(`/api/admin/users/${learner.id}/audit-logs`);
    const byAction = () => client.get<Page>(`/api/admin/audit-logs?action=admin.user.lock`);

    // at once: the entry in the unfiltered log (it reads the day's entries themselves), in no filter yet
    const unfiltered = await client.get<Page>(`/api/admin/audit-logs?page_size=10`);
    expect(unfiltered.body.items).toContainEqual(expect.objectContaining({ action: 'admin.user.lock', entity_id: learner.id }));
    expect(await refsOf(auditRefPartition.entity('user', learner.id))).toEqual([]);
    expect((await byEntity()).body.items.map((entry) => entry.action)).not.toContain('admin.user.lock');

    await drainActivityStream();
    const [entityRef] = await refsOf(auditRefPartition.entity('user', learner.id));
    expect(entityRef).toMatchObject({ action: 'admin.user.lock', entity_type: 'user', entity_id: learner.id, actor_user_id: admin.id });
    expect(await refsOf(auditRefPartition.actor(admin.id))).toHaveLength(1);
    // and the drawer and the filters find it
    expect((await byEntity()).body.items.map((entry) => entry.action)).toContain('admin.user.lock');
    expect((await byAction()).body.items.map((entry) => entry.entity_id)).toContain(learner.id);
  });

  it('writes the same references however often a batch is delivered, and never writes scrubbed data back', async () => {
    const person = await createTestUser({ email: 'scrub.me@stream-refs.example' });
    const { record, partitions, item } = await transactionalEntry({
      action: 'auth.password_changed',
      actor: { id: person.id, email: person.email },
      entityType: 'user',
      entityId: person.id,
      ip: '198.51.100.7',
    });
    await deliver([record]);
    await deliver([record]);
    for (const partition of partitions) expect(await refsOf(partition), partition).toHaveLength(1);
    const domainPartition = partitions.find((partition) => partition.includes('stream-refs.example'))!;
    expect(domainPartition).toBeDefined();

    // the hard delete scrubs the entry and its references (the domain's are deleted); a late delivery keeps it so
    await anonymiseEntries(await refsOf(auditRefPartition.entity('user', person.id)), person, new Set([person.email.toLowerCase()]));
    await deliver([record]);
    expect(await refsOf(domainPartition)).toEqual([]);
    const [entityRef] = await refsOf(auditRefPartition.entity('user', person.id));
    expect(entityRef.actor_email).toBe(ANONYMOUS);
    expect(entityRef.sk).toBe(item.sk);
  });

  it('gives no references to an entry that is gone (its TTL) by the time its record is read', async () => {
    const person = await createTestUser();
    const { record, item, partitions } = await transactionalEntry({
      action: 'auth.password_changed',
      actor: { id: person.id, email: person.email },
      entityType: 'user',
      entityId: person.id,
    });
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk } }));
    await deliver([record]);
    for (const partition of partitions) expect((await refsOf(partition)).filter((ref) => ref.sk === item.sk)).toEqual([]);
  });
});
