/**
 * The browser's time zones, read in one place beside the date formatting (utils/format.ts):
 * reminders go out in the learner's morning, so registration sends the browser's zone and
 * Settings offers every zone the browser knows.
 */

/** The browser's IANA time zone, or undefined when it does not tell. */
export const browserTimeZone = (): string | undefined => Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;

/** The zones the browser knows, with the saved one and UTC always among them, sorted. */
export function timeZoneChoices(saved: string): string[] {
  return [...new Set([saved, 'UTC', ...Intl.supportedValuesOf('timeZone')])].sort();
}
