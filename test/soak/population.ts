import type { Rng } from './rng';

/**
 * The simulated population: who the people are and how they behave, drawn from the seed.
 * The mix follows what a career program sees: most register and verify, a tenth never verify;
 * engaged learners come most days, casual ones a few times a week, drifters stop after their
 * first week (their reminders pause after four weeks); a few use a passkey, change their
 * settings, unsubscribe from a reminder, export their data, delete their account (some
 * restore it within the retention period).
 */
export type Engagement = 'engaged' | 'casual' | 'drifter';

export interface Persona {
  index: number;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  /** The person's own address: every request of theirs comes from it (the erasure check looks for it). */
  ip: string;
  userAgent: string;
  timeZone: string;
  /** Day (0-based) and UTC hour of registration. */
  registerDay: number;
  registerHour: number;
  verifies: boolean;
  enrolls: boolean;
  engagement: Engagement;
  frequency: 'daily' | 'weekly' | 'off';
  usesPasskey: boolean;
  /** Chance a day of changing a reminder setting or the time zone. */
  settingsChurn: number;
  /** Chance to use a reminder's "stop" link when one arrives. */
  unsubscribeChance: number;
  exportsData: boolean;
  /** Day the person deletes their own account (undefined: never). */
  selfDeleteDay?: number;
  /** Restores the account that many days after deleting it (undefined: never). */
  restoreAfterDays?: number;
}

/** Zones across the world: whole-hour and half-hour offsets, both hemispheres, with and without summer time. */
export const TIME_ZONES = [
  'UTC',
  'Europe/London',
  'Europe/Berlin',
  'Africa/Lagos',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Tokyo',
  'Australia/Adelaide',
  'Australia/Sydney',
  'Pacific/Auckland',
  'America/St_Johns',
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'Pacific/Honolulu',
] as const;

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Maya',
  'Leila',
  'Tomas',
  'Aiko',
  'Kwame',
  'Ines',
  'Ravi',
  'Sofia',
  'Noah',
  'Zara',
  'Omar',
  'Lena',
  'Yusuf',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Okafor',
  'Haddad',
  'Novak',
  'Tanaka',
  'Mensah',
  'Garcia',
  'Iyer',
  'Rossi',
  'Schmidt',
  'Khan',
  'Silva',
  'Berg',
];
/** Domains: a handful of large providers and a tail of small ones (the domain filter's shapes). */
const DOMAINS = [
  'mail.soak.example',
  'inbox.soak.example',
  'post.soak.example',
  'corp-a.soak.example',
  'corp-b.soak.example',
  'uni.soak.example',
];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
];

export function makePopulation(rng: Rng, accounts: number, days: number): Persona[] {
  const people: Persona[] = [];
  for (let index = 0; index < accounts; index++) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    // half register on the first day, the rest over the first two thirds of the run
    const registerDay = rng.chance(0.5) ? 0 : rng.int(Math.max(1, Math.floor((days * 2) / 3)));
    const engagement: Engagement = rng.chance(0.35) ? 'engaged' : rng.chance(0.6) ? 'casual' : 'drifter';
    const deletes = rng.chance(0.04) && registerDay < days - 2;
    const selfDeleteDay = deletes ? registerDay + 1 + rng.int(Math.max(1, days - registerDay - 2)) : undefined;
    people.push({
      index,
      email: `p${index}.${first.toLowerCase()}@${rng.pick(DOMAINS)}`,
      firstName: first,
      lastName: `${last}${index}`,
      password: `soak pass phrase ${index} ${rng.int(1e9)}`,
      ip: `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
      userAgent: rng.pick(AGENTS),
      timeZone: rng.pick(TIME_ZONES),
      registerDay,
      registerHour: rng.int(24),
      verifies: rng.chance(0.9),
      enrolls: rng.chance(0.88),
      engagement,
      frequency: rng.chance(0.7) ? 'daily' : rng.chance(0.6) ? 'weekly' : 'off',
      usesPasskey: rng.chance(0.1),
      settingsChurn: rng.chance(0.2) ? 0.05 : 0,
      unsubscribeChance: rng.chance(0.15) ? 0.2 : 0,
      exportsData: rng.chance(0.05),
      selfDeleteDay,
      restoreAfterDays: deletes && rng.chance(0.5) ? 1 + rng.int(3) : undefined,
    });
  }
  return people;
}

/** Chance a person comes back on a given day after registering. */
export function visitChance(persona: Persona, dayAfterRegistration: number): number {
  if (persona.engagement === 'engaged') return 0.75;
  if (persona.engagement === 'casual') return 0.3;
  return dayAfterRegistration < 7 ? 0.5 : 0;
}
