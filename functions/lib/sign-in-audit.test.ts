import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { signInAuditOf, signInAudits, signInNote, SIGN_IN_SOURCE_FIELDS } from './sign-in-audit';
import { keys } from './table';

/** A session item as a sign-in puts it (functions/lib/session.ts startSession with the note). */
const session = {
  ...keys.session('u-1', 'sid-1'),
  type: 'session',
  user_id: 'u-1',
  created_at: '2027-03-01T08:30:00.000Z',
  ip: '203.0.113.7',
  user_agent: 'Firefox',
  ...signInNote('ada@example.com', { method: 'password' }),
};
const text = (item: Record<string, unknown>) => (name: string) => (typeof item[name] === 'string' ? item[name] : '');

describe('the auth.login entry of a sign-in', () => {
  it('is the same from the stored session item (a rebuild) as from its stream record (the aggregator)', () => {
    const fromItem = signInAuditOf(text(session));
    const record = {
      eventName: 'INSERT',
      dynamodb: { NewImage: Object.fromEntries(Object.entries(session).map(([name, value]) => [name, { S: value }])) },
    } as unknown as DynamoDBRecord;
    expect(signInAudits([record])).toEqual([fromItem]);
    expect(fromItem).toEqual({
      id: 'sid-1',
      at: new Date('2027-03-01T08:30:00.000Z'),
      input: {
        action: 'auth.login',
        actor: { id: 'u-1', email: 'ada@example.com' },
        entityType: 'user',
        entityId: 'u-1',
        newValues: { method: 'password' },
        ip: '203.0.113.7',
        userAgent: 'Firefox',
      },
    });
  });

  it('needs only the attributes a rebuild reads, and none for a session without a sign-in note', () => {
    const projected = Object.fromEntries(SIGN_IN_SOURCE_FIELDS.map((name) => [name, session[name as keyof typeof session]]));
    expect(signInAuditOf(text(projected))).toEqual(signInAuditOf(text(session)));
    expect(signInAuditOf(text({ ...keys.session('u-1', 'sid-2'), created_at: session.created_at }))).toBeUndefined();
    expect(signInAuditOf(text({ ...keys.user('u-1'), ...signInNote('ada@example.com') }))).toBeUndefined();
  });
});
