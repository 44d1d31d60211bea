import { describe, expect, it } from 'vitest';
import { week1CompletedWrites } from './stats';

describe('week-1 completion counters', () => {
  const enrolledAt = '2026-03-02T09:00:00.000Z';

  it('counts an on-time completion as a stats delta plus the enroll-day bucket, never a second shard update', () => {
    const { stats, writes } = week1CompletedWrites(enrolledAt, '2026-03-08T09:00:00.000Z');
    expect(stats).toEqual({ week1_on_time_total: 1 });
    expect(writes).toHaveLength(1);
    expect(writes[0].Update.Key).toEqual({ pk: 'STATS#ENROLLDAY', sk: 'DAY#2026-03-02' });
  });

  it('counts nothing for a completion after the 7-day window (it stays a drop-off)', () => {
    expect(week1CompletedWrites(enrolledAt, '2026-03-09T09:00:01.000Z')).toEqual({ stats: {}, writes: [] });
  });
});
