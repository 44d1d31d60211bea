/**
 * IANA time zones through the runtime's Intl (no time-zone table of our own): validation,
 * a zone's local day, weekday and minute of day at an instant, and its UTC offset then.
 */
export const DEFAULT_TIME_ZONE = 'UTC';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** The zone's canonical IANA name (as Intl spells it), or undefined when Intl does not know it. */
export function canonicalTimeZone(value: unknown): string | undefined {
  // Intl also takes offsets such as "+05:00": only names are zones a browser reports
  if (typeof value !== 'string' || value.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return undefined;
  try {
    return formatter(value).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export interface LocalTime {
  /** yyyy-mm-dd in the zone */
  day: string;
  /** 0 = Sunday */
  weekday: number;
  /** minutes since local midnight */
  minutes: number;
  /** local time minus UTC, in minutes */
  offset: number;
}

/** Wall-clock time in `zone` at `instant` (an unknown zone reads as UTC). */
export function localTime(instant: Date, zone: string | undefined): LocalTime {
  const known = canonicalTimeZone(zone) ?? DEFAULT_TIME_ZONE;
  const part = Object.fromEntries(
    formatter(known)
      .formatToParts(instant)
      .map(({ type, value }) => [type, Number(value)]),
  );
  const wall = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute);
  const utcMinute = Math.floor(instant.getTime() / 60_000) * 60_000;
  return {
    day: new Date(wall).toISOString().slice(0, 10),
    weekday: new Date(wall).getUTCDay(),
    minutes: part.hour * 60 + part.minute,
    offset: Math.round((wall - utcMinute) / 60_000),
  };
}
