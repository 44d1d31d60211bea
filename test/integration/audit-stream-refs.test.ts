import type { DynamoDBRecord } from 'aws-lambda';
import { DeleteCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../functions/admin/account-items';
import { ANONYMOUS, anonymiseEntries } from '../../functions/admin/audit-anonymisation';
import { handler } from '../../functions/jobs/activity-stream';
import {
  auditEntryKey,
  auditEntryOf,
  auditPuts,
  auditRefItemsOf,
  auditRefPartitions,
  putAuditItems,
  type AuditInput,
} from '../../functions/lib/audit';
import { capacityMeter, db, tableName } from '../../functions/lib/db';
import { queryAll } from '../../functions/lib/query-pages';
import { startSession } from '../../functions/lib/session';
import { signInNote } from '../../functions/lib/sign-in-audit';
import { auditRefPartition, keys, STREAMED_REFERENCES } from '../../functions/lib/table';
import { hardDeleteUser } from '../../functions/admin/hard-delete';
import { continuePurge } from '../../functions/admin/purge-job';
import { discardActivityStream, drainActivityStream } from '../../infra/local/activity-stream';
import { runAs } from '../../infra/local/iam/twin';
import { ApiClient, useApi } from '../helpers/api';
import { hardDeleteToEnd } from '../helpers/hard-delete';
import { createTestUser, signIn } from '../helpers/users';
import { setUserFields } from './program-helpers';
import { everyItem } from '../helpers/every-item';

/**
 * An audit entry written inside the transaction of the change it records gets its references
 * right after the commit, in the same request (functions/lib/audit.ts auditPuts): the person who
 * made the change finds it at once in every view of the log. The table's stream is the repair
 * path (functions/lib/audit-stream-refs.ts): it writes the references a request did not put, from
 * the entry as it is now, and a batch delivered again writes nothing twice.
 */
const api = useApi();

const refsOf = (partition: string) =>
  queryAll<Item>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': partition } });

/**
 * Puts an entry as a transaction does, then takes back the references the commit put (as if
 * the function stopped between the commit and those puts), and returns its stored item and its
 * stream record (as the stream delivers it).
 */
async function transactionalEntryWithoutRefs(input: AuditInput) {
  const puts = auditPuts(input);
  await db().send(new TransactWriteCommand({ TransactItems: puts }));
  const item = puts[0].Put.Item;
  const partitions = auditRefPartitions(auditEntryOf(item));
  for (const partition of partitions) await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: partition, sk: item.sk } }));
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
  return { item, record, partitions };
}

const deliver = (records: DynamoDBRecord[]) => runAs('activityStream', () => handler({ Records: records }));

type Page = { items: Array<{ action: string; entity_id: string; old_values: unknown; new_values: unknown }> };

describe('audit references of an entry written in a transaction', () => {
  it("shows an admin's edit in the learner's Audit tab and in every filter right after the answer, with no stream read", async () => {
    const admin = await createTestUser({ role: 'admin', email: `admin-${Date.now()}@ryw.example` });
    // a client that never drains the stream (an admin's browser); nothing here reads the stream
    const client = new ApiClient(api.baseUrl);
    await signIn(client, admin);
    const learners = await Promise.all(Array.from({ length: 5 }, () => createTestUser()));
    for (const [round, learner] of learners.entries()) {
      const changes = {
        first_name: `Edited${round}`,
        last_name: `Name${round}`,
        email: `edited-${round}-${learner.id}@ryw-learners.example`,
      };
      expect((await client.patch(`/api/admin/users/${learner.id}`, changes)).status).toBe(200);
      const views = {
        'Audit tab': `/api/admin/users/${learner.id}/audit-logs`,
        action: `/api/admin/audit-logs?action=admin.user.update`,
        actor: `/api/admin/audit-logs?actor=${encodeURIComponent(admin.email)}`,
        domain: `/api/admin/audit-logs?actor=${encodeURIComponent('@ryw.example')}`,
        'entity type': `/api/admin/audit-logs?entity_type=user`,
        entity: `/api/admin/audit-logs?entity_type=user&entity_id=${learner.id}`,
        unfiltered: `/api/admin/audit-logs?page_size=10`,
      };
      for (const [view, path] of Object.entries(views)) {
        const { body } = await client.get<Page>(path);
        const edit = body.items.find((entry) => entry.action === 'admin.user.update' && entry.entity_id === learner.id);
        expect(edit, `round ${round}: ${view}`).toBeDefined();
        expect(edit!.new_values).toMatchObject(changes);
        expect(edit!.old_values).toMatchObject({ first_name: learner.first_name, last_name: learner.last_name, email: learner.email });
      }
    }
  });

  it('lets the stream write only the references a request did not put', async () => {
    const person = await createTestUser();
    const { record, partitions, item } = await transactionalEntryWithoutRefs({
      action: 'auth.password_changed',
      actor: { id: person.id, email: person.email },
      entityType: 'user',
      entityId: person.id,
    });
    expect(partitions).toHaveLength(4);
    // the request put two of them before it stopped
    await putAuditItems(auditRefItemsOf(item).slice(0, 2));
    capacityMeter.reset();
    await deliver([record]);
    expect(capacityMeter.snapshot().write).toBe(2);
    for (const partition of partitions) expect(await refsOf(partition), partition).toHaveLength(1);
    // delivered again: everything is there, nothing is put
    capacityMeter.reset();
    await deliver([record]);
    expect(capacityMeter.snapshot().write).toBe(0);
  });

  it('writes the same references however often a batch is delivered, and never writes scrubbed data back', async () => {
    const person = await createTestUser({ email: 'scrub.me@stream-refs.example' });
    const { record, partitions, item } = await transactionalEntryWithoutRefs({
      action: 'auth.password_changed',
      actor: { id: person.id, email: person.email },
      entityType: 'user',
      entityId: person.id,
      ip: '198.51.100.7',
    });
    await deliver([record]);
    await deliver([record]);
    for (const partition of partitions)
      expect(await refsOf(partition).then((refs) => refs.filter((ref) => ref.sk === item.sk)), partition).toHaveLength(1);
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
    const { record, item, partitions } = await transactionalEntryWithoutRefs({
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

describe("a sign-in's stream record delivered after the account's erasure", () => {
  const DAY = 24 * 3600 * 1000;
  const origin = { ip: '198.51.100.61', userAgent: 'LateRecordBrowser/2.0' };

  /** An account that signed in (its session item, with the sign-in's note), and that session's INSERT record as the stream delivers it. */
  async function signedInThenDeleted(email: string) {
    const person = await createTestUser({ email, first_name: 'Lavinia', last_name: 'Latecomer' });
    const { sessionId } = await startSession(person, origin, signInNote(person.email));
    const session = (
      await db().send(new GetCommand({ TableName: tableName(), Key: keys.session(person.id, sessionId), ConsistentRead: true }))
    ).Item!;
    const record: DynamoDBRecord = { eventName: 'INSERT', dynamodb: { NewImage: marshall(session) as never } };
    return { person, record, sessionId };
  }
  const softDelete = async (admin: ApiClient, id: string) => {
    expect((await admin.post(`/api/admin/users/${id}/soft-delete`, { reason: 'asked' })).status).toBe(200);
    await setUserFields(id, { deleted_at: new Date(Date.now() - 31 * DAY).toISOString() });
  };
  const personalLeft = async (email: string) => {
    const text = JSON.stringify(await everyItem()).toLowerCase();
    return [email.toLowerCase(), origin.ip, origin.userAgent.toLowerCase(), 'late-records.example'].filter((value) => text.includes(value));
  };

  it('writes nothing of an account being erased or erased, however late the record comes', async () => {
    const operator = await createTestUser({ role: 'admin' });
    const admin = api.client();
    await signIn(admin, operator);
    const { person, record } = await signedInThenDeleted(`lavinia-${Date.now()}@late-records.example`);
    // the stream never got to the sign-in before the hard delete
    await discardActivityStream();
    await softDelete(admin, person.id);

    // the purge has started (the account is purging, nothing else done yet): the record comes
    const caller = { admin: operator, ip: '203.0.113.1', userAgent: 'AdminBrowser' };
    const started = await runAs('admin', () => hardDeleteUser(person.id, person.email, caller, new Date(), { timeLeftMs: () => 0 }));
    expect(started.status).toBe('purging');
    await deliver([record]);
    expect(await storedAuditEntriesOf(person.id, 'auth.login')).toEqual([]);

    // the purge finishes; the record comes again (Lambda's retry of the batch)
    expect((await runAs('purge', () => continuePurge(person.id))).status).toBe('done');
    await deliver([record]);
    expect(await storedAuditEntriesOf(person.id, 'auth.login')).toEqual([]);
    expect(await personalLeft(person.email)).toEqual([]);
  }, 60_000);

  it('writes no personal data back into a scrubbed sign-in entry or its references', async () => {
    const admin = api.client();
    await signIn(admin, await createTestUser({ role: 'admin' }));
    const { person, record, sessionId } = await signedInThenDeleted(`lavinia.again-${Date.now()}@late-records.example`);
    await drainActivityStream(); // the sign-in's entry is written, with the email, address and browser
    const [login] = await storedAuditEntriesOf(person.id, 'auth.login');
    expect(login).toMatchObject({ id: sessionId, actor_email: person.email, ip: origin.ip });
    await softDelete(admin, person.id);
    await hardDeleteToEnd(admin, person);
    expect(await personalLeft(person.email)).toEqual([]);

    // delivered again after the purge scrubbed it
    await deliver([record]);
    expect(await storedAuditEntriesOf(person.id, 'auth.login')).toEqual([
      expect.objectContaining({ id: sessionId, actor_email: ANONYMOUS, ip: null, user_agent: null }),
    ]);
    expect(await personalLeft(person.email)).toEqual([]);
  }, 60_000);

  it('still writes the entry of an account that is only soft-deleted (its purge will scrub it)', async () => {
    const admin = api.client();
    await signIn(admin, await createTestUser({ role: 'admin' }));
    const { person, record, sessionId } = await signedInThenDeleted(`lavinia.kept-${Date.now()}@kept-records.example`);
    await discardActivityStream();
    await softDelete(admin, person.id);
    await deliver([record]);
    expect(await storedAuditEntriesOf(person.id, 'auth.login')).toEqual([
      expect.objectContaining({ id: sessionId, actor_email: person.email }),
    ]);
  }, 60_000);
});

/** The entries of an account's entity references with this action, as stored (absent fields as null). */
async function storedAuditEntriesOf(userId: string, action: string) {
  const refs = await refsOf(auditRefPartition.entity('user', userId));
  const entries = await Promise.all(
    refs.map(
      async (ref) => (await db().send(new GetCommand({ TableName: tableName(), Key: auditEntryKey(ref), ConsistentRead: true }))).Item,
    ),
  );
  return entries.filter((entry) => entry?.action === action).map((entry) => auditEntryOf(entry!));
}
