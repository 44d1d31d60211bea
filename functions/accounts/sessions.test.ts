import { describe, expect, it } from 'vitest';
import { isLive } from './sessions';

/** A session's lifetime is read from its sign-in time and last use, never from the item's TTL (kept days longer). */
describe('isLive', () => {
  const HOUR = 3600 * 1000;
  const now = Date.parse('2026-03-10T12:00:00.000Z');
  const at = (msAgo: number) => new Date(now - msAgo).toISOString();
  const user = { session_version: 2 };
  const session = (fields: Record<string, unknown>) => ({ pk: 'p', sk: 's', session_version: 2, ...fields });

  it('is live within 12 hours of the sign-in and an hour of the last use', () => {
    expect(isLive(session({ created_at: at(11 * HOUR), last_seen_at: at(10 * 60 * 1000) }), user, now)).toBe(true);
  });

  it('ends 12 hours after the sign-in however recent the last use, whatever the TTL says', () => {
    const item = session({
      created_at: at(12 * HOUR + 1000),
      last_seen_at: at(60 * 1000),
      expires_at: Math.floor(now / 1000) + 8 * 24 * 3600,
    });
    expect(isLive(item, user, now)).toBe(false);
  });

  it('ends an hour after the last use, and at once for another session version or without a sign-in time', () => {
    expect(isLive(session({ created_at: at(2 * HOUR), last_seen_at: at(HOUR + 1000) }), user, now)).toBe(false);
    expect(isLive(session({ created_at: at(HOUR), session_version: 1 }), user, now)).toBe(false);
    expect(isLive(session({ last_seen_at: at(60 * 1000) }), user, now)).toBe(false);
  });
});
