import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { mockDocumentClient } from '../../test/helpers/dynamo-mock';
import { auditEntriesOf, auditEntryKey, auditItems } from './audit';
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
