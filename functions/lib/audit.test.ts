import { BatchGetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { mockDocumentClient } from '../../test/helpers/dynamo-mock';
import { auditEntriesOf, auditEntryKey, auditItems, auditPuts, putCommittedAuditRefs } from './audit';
import { tableName } from './db';

const dynamo = mockDocumentClient();

describe('auditEntriesOf', () => {
  const [entry, ...refs] = auditItems({
    action: 'admin.user.lock',
    entityType: 'user',
    entityId: 'u1',
    actor: { id: 'a1', email: 'a@x.org' },
  });
  const [gone] = auditItems({ action: 'admin.user.lock', entityType: 'user', entityId: 'u2' }).slice(1);

  it('fetches the entries of references in page order, asks a consistent read for one not yet visible, and leaves out one whose entry is gone', async () => {
    dynamo
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { [tableName()]: [] } })
      .resolvesOnce({ Responses: { [tableName()]: [entry] } });
    expect(await auditEntriesOf([refs[0], gone])).toEqual([entry]);
    const calls = dynamo.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems![tableName()]);
    expect(calls[0].ConsistentRead).toBeUndefined();
    expect(calls[1]).toMatchObject({
      ConsistentRead: true,
      Keys: expect.arrayContaining([auditEntryKey(refs[0]), auditEntryKey(gone)]) as unknown,
    });
  });

  it('keeps entries (the day log reads them) without a read, and each reference finds its entry’s shard', async () => {
    expect(await auditEntriesOf([entry])).toEqual([entry]);
    expect(dynamo.commandCalls(BatchGetCommand)).toHaveLength(0);
    for (const ref of refs) expect(auditEntryKey(ref)).toEqual({ pk: entry.pk, sk: entry.sk });
  });
});

describe('putCommittedAuditRefs (run when a transaction commits)', () => {
  const input = { action: 'admin.user.lock', entityType: 'user', entityId: 'u1', actor: { id: 'a1', email: 'a@x.org' } };

  it("puts the four references of the transaction's marked audit entry, and nothing for its other items", async () => {
    dynamo.on(PutCommand).resolves({});
    const other = { Update: { TableName: tableName(), Key: { pk: 'USER#u1', sk: 'PROFILE' } } };
    await putCommittedAuditRefs([other, ...auditPuts(input)]);
    const puts = dynamo.commandCalls(PutCommand).map((call) => String(call.args[0].input.Item!.pk));
    expect(puts).toHaveLength(4);
    expect(puts.every((pk) => pk.startsWith('AUDITREF#'))).toBe(true);
    await putCommittedAuditRefs([{ Put: { TableName: tableName(), Item: auditItems(input)[0] } }]);
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(4);
  });

  it('does not fail the committed change when a put fails: the stream writes what is missing', async () => {
    dynamo.on(PutCommand).rejects(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    await expect(putCommittedAuditRefs(auditPuts(input))).resolves.toBeUndefined();
  });
});
