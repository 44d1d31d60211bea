import { describe, expect, it } from 'vitest';
import { isDue, reminderPartition, reminderPartitions, sendSlot } from './reminder-index';
import { canonicalTimeZone } from '../lib/time-zone';

/** The UTC hour of a learner's local 09:00, through the runtime's time-zone data. */
describe('the reminder send hour', () => {
  it('is the first whole UTC hour at or after 09:00 local, with the offset of the day (daylight saving time)', () => {
    const winter = new Date('2031-01-15T12:00:00Z');
    const summer = new Date('2031-07-15T12:00:00Z');
    expect(sendSlot('Asia/Tokyo', 1, winter)).toEqual({ weekday: 1, hour: 0 });
    expect(sendSlot('America/Los_Angeles', 1, winter)).toEqual({ weekday: 1, hour: 17 });
    expect(sendSlot('America/Los_Angeles', 1, summer)).toEqual({ weekday: 1, hour: 16 });
    expect(sendSlot('Europe/Berlin', 0, summer)).toEqual({ weekday: 0, hour: 7 });
    // 09:00 in Kolkata is 03:30 UTC: the 04:00 run (09:30 local)
    expect(sendSlot('Asia/Kolkata', 3, winter)).toEqual({ weekday: 3, hour: 4 });
    // 09:00 on Sunday at UTC+14 is 19:00 on Saturday in UTC
    expect(sendSlot('Pacific/Kiritimati', 0, winter)).toEqual({ weekday: 6, hour: 19 });
    expect(sendSlot(undefined, 2, winter)).toEqual({ weekday: 2, hour: 9 });
  });

  it('puts weekly learners on their local enrollment weekday and reads as due only in their hour, or once their morning has passed', () => {
    const schedule = { frequency: 'weekly' as const, timeZone: 'Asia/Tokyo', enrolledAt: '2031-01-05T23:30:00.000Z' }; // Monday in Tokyo
    const monday = new Date('2031-01-06T00:00:00Z');
    const partition = reminderPartition('u-1', schedule, monday)!;
    expect(partition).toMatch(/^REMIND#weekly#1#00#\d$/);
    expect(isDue(partition, new Set(reminderPartitions(monday, 0)), schedule, monday)).toBe(true);
    // an entry read in the UTC hour before (still 08:00 in Tokyo) is not due yet
    const before = new Date('2031-01-05T23:00:00Z');
    expect(isDue(partition, new Set(reminderPartitions(before, 23)), schedule, before)).toBe(false);
    // an entry read later on Monday, out of its hour (moved by a clock change): mailed at once
    const later = new Date('2031-01-06T03:00:00Z');
    expect(isDue(partition, new Set(reminderPartitions(later, 3)), schedule, later)).toBe(true);
    // but not on another local weekday
    const tuesday = new Date('2031-01-07T03:00:00Z');
    expect(isDue(partition, new Set(reminderPartitions(tuesday, 3)), schedule, tuesday)).toBe(false);
    expect(reminderPartition('u-1', { ...schedule, frequency: 'off' }, monday)).toBeNull();
  });

  it('takes IANA names only, as Intl spells them', () => {
    expect(canonicalTimeZone('america/los_angeles')).toBe('America/Los_Angeles');
    for (const bad of ['Mars/Base', '+09:00', '', 9, null, 'UTC; DROP', 'A'.repeat(80)]) expect(canonicalTimeZone(bad)).toBeUndefined();
  });
});
