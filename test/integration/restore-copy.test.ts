import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTION, auditItems } from '../../functions/lib/audit';
import { tableName } from '../../functions/lib/db';
import { startSession } from '../../functions/lib/session';
import { keys, ttlIn } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { searchItems } from '../../functions/lib/users';
import { startPurge } from '../../functions/admin/purge-job';
import { systemEraseAudit } from '../../functions/admin/erasure';
import { getUserById } from '../../functions/lib/users';
import { restoreCopy, type RestoreOptions } from '../../infra/ops/restore-copy';
import { ensureTable } from '../../infra/local/table-setup';
import { legacyAuditItem } from '../helpers/legacy-audit';
import { createTestUser } from '../helpers/users';
import { setUserFields } from './program-helpers';

/**
 * The copy-back of a point-in-time restore (docs/runbook.md#restore-the-table-to-a-point-in-time)
 * against DynamoDB Local: this file's table stands for the restored one (the state at the restore
 * point, written by the product's own code), a second table for the damaged live one.
 */
const HOUR = 3600 * 1000;
const restorePoint = new Date(Date.now() - 2 * HOUR);
const liveTable = `live-${randomUUID().slice(0, 8)}`;
const raw = new DynamoDBClient({
  endpoint: process.env.DYNAMODB_ENDPOINT,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
const client = DynamoDBDocumentClient.from(raw);
const put = (TableName: string, Item: Record<string, unknown>) => client.send(new PutCommand({ TableName, Item }));
const restoredPut = (Item: Record<string, unknown>) => put(tableName(), Item);
const partition = async (table: string, pk: string) =>
  (await client.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } })))
    .Items ?? [];
const liveKeys = async (pk: string) => (await partition(liveTable, pk)).map((item) => String(item.sk)).sort();
const options = (extra: Partial<RestoreOptions> = {}): RestoreOptions => ({
  restoredTable: tableName(),
  liveTable,
  restorePoint,
  client,
  pageSize: 7,
  ...extra,
});

let kept: UserRecord;
let erasedLater: UserRecord;
let erasingAtRestorePoint: UserRecord;
let renamed: UserRecord;
const passkeyKept = 'keptPasskeyHash0123456789abcdefghijklmnopq';
const passkeyRemoved = 'removedPasskeyHash0123456789abcdefghijklmn';

beforeAll(async () => {
  await ensureTable(raw, liveTable);
  [kept, erasedLater, erasingAtRestorePoint, renamed] = await Promise.all([
    createTestUser({ first_name: 'Kept' }),
    createTestUser({ first_name: 'Erased' }),
    createTestUser({ first_name: 'Erasing' }),
    createTestUser({ first_name: 'Before' }),
  ]);
  await startSession(kept);
  const day = restorePoint.toISOString().slice(0, 10);
  await Promise.all([
    restoredPut({ ...keys.code(kept.id, 'verify_email'), code_hash: 'x', expires_at: ttlIn(3600) }),
    restoredPut({ ...keys.challenge('c1'), user_id: kept.id, expires_at: ttlIn(3600) }),
    restoredPut({ ...keys.resetToken('used-token-hash'), user_id: kept.id, expires_at: ttlIn(3600) }),
    restoredPut({ ...keys.rateWindow('login', '203.0.113.0', 1), count: 3, expires_at: ttlIn(3600) }),
    restoredPut({ ...keys.loginBackoff(kept.email), failures: 4, expires_at: ttlIn(3600) }),
    restoredPut({ ...keys.webauthnChallenge('w1'), expires_at: ttlIn(3600) }),
    restoredPut({ ...keys.reminderSent(kept.id, '2020-01-01'), expires_at: ttlIn(-3600) }),
    restoredPut({ ...keys.passkey(kept.id, passkeyKept), name: 'Laptop' }),
    restoredPut({ ...keys.passkeyLookup(passkeyKept), user_id: kept.id }),
    restoredPut({ ...keys.passkey(kept.id, passkeyRemoved), name: 'Lost phone' }),
    restoredPut({ ...keys.passkeyLookup(passkeyRemoved), user_id: kept.id }),
    restoredPut({ ...keys.activity(day, erasedLater.id), day }),
    restoredPut({ ...keys.activity(day, kept.id), day }),
    ...auditItems({ action: 'admin.user.soft_delete', entityType: 'user', entityId: erasedLater.id }, restorePoint).map(restoredPut),
    // a purge running at the restore point: its account is being erased (marked `purging`, its
    // job started, its items not yet removed)
    setUserFields(erasingAtRestorePoint.id, {
      status: 'deleted',
      deleted_at: new Date(restorePoint.getTime() - 40 * 24 * HOUR).toISOString(),
    })
      .then(() => getUserById(erasingAtRestorePoint.id))
      .then((user) => startPurge(user!, systemEraseAudit(user!, 30), restorePoint)),
    restoredPut({ ...keys.activity(day, erasingAtRestorePoint.id), day }),
    // what happened on the live table after the restore point; the hard delete written before the
    // references (in its day partition, as every entry is)
    put(liveTable, legacyAuditItem({ action: AUDIT_ACTION.adminHardDelete, entityType: 'user', entityId: erasedLater.id }, new Date())),
    ...auditItems({
      action: AUDIT_ACTION.passkeyRemoved,
      entityType: 'user',
      entityId: kept.id,
      oldValues: { passkey: passkeyRemoved.slice(0, 8) },
    }).map((item) => put(liveTable, item)),
    // a removal long before the restore point does not hide a passkey the restored table holds
    // (one written before the references, one after)
    put(
      liveTable,
      legacyAuditItem(
        { action: AUDIT_ACTION.passkeyRemoved, entityType: 'user', entityId: kept.id, oldValues: { passkey: passkeyKept.slice(0, 8) } },
        new Date(restorePoint.getTime() - 24 * HOUR),
      ),
    ),
    ...auditItems(
      { action: AUDIT_ACTION.passkeyRemoved, entityType: 'user', entityId: kept.id, oldValues: { passkey: passkeyKept.slice(0, 8) } },
      new Date(restorePoint.getTime() - 25 * HOUR),
    ).map((item) => put(liveTable, item)),
    // accounts changed after the restore point: by default the live profile stands
    put(liveTable, { ...keys.user(kept.id), ...kept, first_name: 'Renamed' }),
    put(liveTable, { ...keys.user(renamed.id), ...renamed, first_name: 'Renamed' }),
  ]);
}, 60_000);

afterAll(async () => {
  await raw.send(new DeleteTableCommand({ TableName: liveTable }));
  raw.destroy();
});

describe('the restore copy-back', () => {
  it('copies accounts, passkeys and activity without sessions, codes, tokens, challenges, rate limits or expired items', async () => {
    const totals = await restoreCopy(options());
    expect(await liveKeys(keys.user(kept.id).pk)).toEqual([keys.passkey(kept.id, passkeyKept).sk, 'PROFILE'].sort());
    expect((await partition(liveTable, keys.email(kept.email).pk)).map((item) => String(item.user_id))).toEqual([kept.id]);
    // the first name's search item is the old name's: the live profile is renamed
    for (const search of searchItems(kept))
      if (search.field === 'first_name') expect(await liveKeys(search.pk)).not.toContain(search.sk);
      else expect(await liveKeys(search.pk)).toContain(search.sk);
    expect(await liveKeys(keys.passkeyLookup(passkeyKept).pk)).toEqual(['PASSKEY']);
    expect(await liveKeys(keys.activity(restorePoint.toISOString().slice(0, 10), kept.id).pk)).toEqual([`USER#${kept.id}`]);
    for (const pk of [keys.challenge('c1').pk, keys.resetToken('used-token-hash').pk, keys.webauthnChallenge('w1').pk])
      expect(await liveKeys(pk)).toEqual([]);
    expect(await liveKeys(keys.rateWindow('login', '203.0.113.0', 1).pk)).toEqual([]);
    expect(await liveKeys(keys.loginBackoff(kept.email).pk)).toEqual([]);
    expect(totals.skipped.credential).toBe(7); // a session, a code, a challenge, a token, a rate window, a back-off, a WebAuthn challenge
    expect(totals.skipped.expired).toBe(1);
  });

  it('leaves out every item of an account hard-deleted after the restore point or being erased at it', async () => {
    for (const user of [erasedLater, erasingAtRestorePoint]) {
      expect(await liveKeys(keys.user(user.id).pk)).toEqual([]);
      expect(await liveKeys(keys.email(user.email).pk)).toEqual([]);
      for (const search of searchItems(user)) expect(await liveKeys(search.pk)).not.toContain(search.sk);
    }
    const day = restorePoint.toISOString().slice(0, 10);
    expect(await liveKeys(keys.activity(day, erasedLater.id).pk)).toEqual([`USER#${kept.id}`]);
    expect(await liveKeys(keys.purgeJob(erasingAtRestorePoint.id).pk)).toEqual([]);
    const audit = await partition(liveTable, keys.audit(restorePoint.toISOString(), 'x').pk);
    expect(audit.filter((entry) => entry.action === 'admin.user.soft_delete')).toEqual([]);
  });

  it('leaves out a passkey removed after the restore point, with its lookup', async () => {
    expect(await liveKeys(keys.passkeyLookup(passkeyRemoved).pk)).toEqual([]);
    expect(await liveKeys(keys.user(kept.id).pk)).not.toContain(keys.passkey(kept.id, passkeyRemoved).sk);
  });

  it('keeps what changed on the live table unless told to overwrite; a rerun copies nothing twice', async () => {
    const firstName = async (user: UserRecord): Promise<unknown> =>
      (await partition(liveTable, keys.user(user.id).pk)).find((item) => item.sk === 'PROFILE')?.first_name;
    expect([await firstName(kept), await firstName(renamed)]).toEqual(['Renamed', 'Renamed']);
    const rerun = await restoreCopy(options());
    expect(rerun.copied).toBe(0);
    expect(rerun.kept).toBeGreaterThan(0);
    const overwritten = await restoreCopy(options({ overwrite: true }));
    // never overwritten: the two email guards, the passkey lookup, and the profile of the account
    // whose passkey was removed after the restore point
    expect(overwritten.kept).toBe(4);
    expect(overwritten.copied).toBe(rerun.kept - 4);
    expect([await firstName(kept), await firstName(renamed)]).toEqual(['Renamed', 'Before']);
  });

  it('resumes from the position printed after a page', async () => {
    const positions: unknown[] = [];
    const whole = await restoreCopy(options(), (_, next) => positions.push(next));
    expect(positions.length).toBeGreaterThan(1);
    expect(positions.at(-1)).toBeUndefined();
    const rest = await restoreCopy(options({ startAfter: positions[0] as Record<string, unknown> }));
    expect(rest.scanned).toBe(whole.scanned - 7);
  });
});
