import { describe, expect, it } from 'vitest';
import { auditSentence, hasSentence, targetName, valueDiff } from './sentence';

describe('auditSentence', () => {
  it('names the person from the values the entry recorded', () => {
    const entry = {
      action: 'admin.user.lock',
      entity_type: 'user',
      entity_id: 'u1',
      old_values: { first_name: 'Maya', last_name: 'Okafor', status: 'active' },
    };
    expect(auditSentence(entry)).toBe('Admin locked Maya Okafor');
    expect(auditSentence({ ...entry, old_values: { email: 'maya@example.com' } })).toBe('Admin locked maya@example.com');
    expect(auditSentence({ ...entry, old_values: null })).toBe('Admin locked user u1');
  });

  it('uses the actor for a person acting on their own account', () => {
    expect(auditSentence({ action: 'auth.login', actor_email: 'maya@example.com', entity_type: 'user', entity_id: 'u1' })).toBe(
      'maya@example.com signed in',
    );
    expect(
      auditSentence({ action: 'auth.login_failed', entity_type: 'user', entity_id: 'unknown', new_values: { email: 'x@example.com' } }),
    ).toBe('A sign-in failed for x@example.com');
  });

  it('names the system erasure after retention, a one-click unsubscribe and a change on the unsubscribe page', () => {
    expect(
      auditSentence({
        action: 'system.user.hard_delete',
        actor_email: 'system',
        entity_type: 'user',
        entity_id: 'u3',
        old_values: { status: 'deleted' },
      }),
    ).toBe('The system erased user u3 after the retention period');
    expect(
      auditSentence({
        action: 'notifications.unsubscribe',
        actor_email: 'maya@example.com',
        entity_type: 'user',
        entity_id: 'u1',
        new_values: { reminder_frequency: 'off' },
      }),
    ).toBe('maya@example.com stopped reminder emails');
    expect(
      auditSentence({
        action: 'notifications.link_frequency',
        actor_email: 'maya@example.com',
        entity_type: 'user',
        entity_id: 'u1',
        new_values: { reminder_frequency: 'weekly', via: 'unsubscribe_link' },
      }),
    ).toBe("maya@example.com changed how often reminder emails come, from an email's link");
  });

  it('covers module overrides and falls back to the key for an unknown action', () => {
    expect(auditSentence({ action: 'admin.module.reopen', entity_type: 'user', entity_id: 'u2' })).toBe(
      'Admin reopened a module for user u2',
    );
    expect(hasSentence({ action: 'made.up' })).toBe(false);
    expect(auditSentence({ action: 'made.up' })).toBe('made.up');
    expect(targetName({ entity_type: 'enrollment', entity_id: 'e1' })).toBe('enrollment e1');
  });

  it('reads the CSV exports', () => {
    expect(
      auditSentence({
        action: 'admin.export_users',
        entity_type: 'export',
        entity_id: 'users',
        new_values: { filters: { status: 'locked' }, rows: 3 },
      }),
    ).toBe('Admin exported the users list as CSV');
    expect(auditSentence({ action: 'admin.export_audit', entity_type: 'export', entity_id: 'audit_logs' })).toBe(
      'Admin exported the audit log as CSV',
    );
  });
});

describe('valueDiff', () => {
  it('lists only the fields that changed, in order', () => {
    expect(valueDiff({ status: 'active', is_locked: false, email: 'a@x' }, { status: 'locked', is_locked: true, email: 'a@x' })).toEqual([
      { key: 'is_locked', before: 'false', after: 'true' },
      { key: 'status', before: 'active', after: 'locked' },
    ]);
    expect(valueDiff(null, { reason: 'spam' })).toEqual([{ key: 'reason', before: '—', after: 'spam' }]);
  });
});
