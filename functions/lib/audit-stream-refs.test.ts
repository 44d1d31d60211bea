import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { streamedAuditEntryKeys } from './audit-stream-refs';
import { PK, STREAMED_REFERENCES } from './table';

const entryKey = { pk: `${PK.audit}2026-11-26#1`, sk: '2026-11-26T10:00:00.000Z#a1' };
const record = (eventName: DynamoDBRecord['eventName'], image: Record<string, string>): DynamoDBRecord => ({
  eventName,
  dynamodb: { NewImage: Object.fromEntries(Object.entries(image).map(([name, value]) => [name, { S: value }])) },
});
const marked = { [STREAMED_REFERENCES.attribute]: STREAMED_REFERENCES.value };

describe('streamedAuditEntryKeys', () => {
  it('picks the new audit entries marked as written inside a transaction', () => {
    expect(streamedAuditEntryKeys([record('INSERT', { ...entryKey, ...marked, action: 'admin.user.lock' })])).toEqual([entryKey]);
  });

  it('leaves out entries whose writer put their references, later changes, references and other items', () => {
    const records = [
      record('INSERT', { ...entryKey, action: 'auth.login_failed' }),
      record('MODIFY', { ...entryKey, ...marked }),
      record('REMOVE', { ...entryKey, ...marked }),
      record('INSERT', { pk: `${PK.auditRef}ENTITY#user#u1`, sk: entryKey.sk, ...marked }),
      record('INSERT', { pk: `${PK.user}u1`, sk: 'PROFILE', ...marked }),
      { eventName: 'INSERT' as const },
    ];
    expect(streamedAuditEntryKeys(records)).toEqual([]);
  });
});
