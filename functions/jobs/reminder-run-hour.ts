import { MAX_SLICE_AGE_MS } from '../program/reminders';

/**
 * Which UTC hour a run of the reminders job serves (docs/runbook.md#reminders-failing). The
 * schedule's event names its own hour (`time`), so a late delivery or a retry of a failed run
 * serves the hour that failed; an operator reruns a past hour with `{"hour": "2026-03-26T07"}`;
 * `{}` is the current hour. Anything else is refused before any work, with a code that says why.
 */
export type ReminderRunHour = { ok: true; now: Date } | { ok: false; error: ReminderRunRefusal; message: string };

export type ReminderRunRefusal = 'invalid_hour' | 'hour_in_future' | 'hour_too_old' | 'invalid_event';

/** The payload naming an hour: the UTC day and hour, `YYYY-MM-DDTHH`. */
export const RERUN_HOUR_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}$/;
const HOUR_EXAMPLE = '2026-03-26T07';

/**
 * How long before the workers drop a slice as stale (MAX_SLICE_AGE_MS after its hour) a rerun
 * must start: an hour to queue and send it. Older hours are refused: their learners' morning is
 * long past, and a rerun would only queue slices the workers drop.
 */
export const RERUN_MARGIN_MS = 3600 * 1000;
const HOUR_MS = 3600 * 1000;

const refuse = (error: ReminderRunRefusal, message: string): ReminderRunHour => ({ ok: false, error, message });
const hourStart = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
/** `2026-03-26T07`: how the runbook and the job's answer name an hour. */
export const hourName = (date: Date) => date.toISOString().slice(0, 13);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The run of `at` (a time within the hour to serve), if that hour may still run at `clock`. */
function runOf(at: Date, clock: Date): ReminderRunHour {
  const start = hourStart(at.getTime());
  if (start > clock.getTime()) return refuse('hour_in_future', `${hourName(at)} has not begun (now ${hourName(clock)}).`);
  const latest = start + MAX_SLICE_AGE_MS - RERUN_MARGIN_MS;
  if (clock.getTime() > latest)
    return refuse(
      'hour_too_old',
      `${hourName(at)} can be rerun until ${hourName(new Date(latest))}: its slices would be dropped as stale; its learners are reminded by the next day's run of the hour.`,
    );
  // the current hour runs at the clock's time, as the schedule does; a past hour at its start
  return { ok: true, now: start === hourStart(clock.getTime()) ? clock : new Date(start) };
}

/** Reads the event the job was invoked with: nothing or `{}`, the schedule's event, or `{"hour": "YYYY-MM-DDTHH"}`. */
export function reminderRunHour(event: unknown, clock: Date): ReminderRunHour {
  if (event === undefined || event === null || (isObject(event) && Object.keys(event).length === 0)) return { ok: true, now: clock };
  if (isObject(event) && event['detail-type'] === 'Scheduled Event' && typeof event.time === 'string') {
    const time = new Date(event.time);
    if (Number.isNaN(time.getTime())) return refuse('invalid_event', `The schedule's event has no valid time: ${event.time}.`);
    return runOf(time, clock);
  }
  if (isObject(event) && Object.keys(event).length === 1 && 'hour' in event) {
    const hour = event.hour;
    if (typeof hour !== 'string' || !RERUN_HOUR_PATTERN.test(hour))
      return refuse('invalid_hour', `"hour" is the UTC day and hour to rerun, e.g. "${HOUR_EXAMPLE}"; got ${JSON.stringify(hour)}.`);
    const at = new Date(`${hour}:00:00.000Z`);
    if (Number.isNaN(at.getTime()) || hourName(at) !== hour)
      return refuse('invalid_hour', `${hour} is not a UTC day and hour, e.g. "${HOUR_EXAMPLE}".`);
    return runOf(at, clock);
  }
  return refuse('invalid_event', 'The reminders job takes {} (the current hour), {"hour": "YYYY-MM-DDTHH"} or its schedule\'s event.');
}
