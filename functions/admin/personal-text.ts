/**
 * An erased person's email and names, found in what others wrote about them (docs/security.md#privacy-of-the-audit-log):
 * audit values (a soft-delete reason "requested by jane.doe@x.com", "Jane Doe asked") and the
 * program's change notes. A whole value that is the email or a name (any case) is the person's;
 * inside a longer text the email is replaced wherever it stands as an address of its own, and a
 * name only as a whole word (never inside another word: erasing "Ann" leaves "Annual" alone).
 * The full name is replaced before its parts. A one-character name is replaced only as a whole
 * value or within the full name: on its own it would take every "A" of a sentence.
 */
export const ANONYMOUS = 'deleted-user';

export interface PersonalText {
  /** Whether the whole value is the person's email or one of their names (any case, spaces around ignored). */
  is(value: string): boolean;
  /** The text with the person's email and names replaced by {@link ANONYMOUS}. */
  scrub(text: string): string;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * Before a name: a letter, mark, digit or a joiner (Mary-Jane, mary.jane@…, @jane) makes it part
 * of another word, name or address; after it, the same or a full stop that goes on (jane.doe@…).
 */
const NAME_JOINED_BEFORE = '[\\p{L}\\p{M}\\p{N}_@.+-]';
const NAME_JOINED_AFTER = '[\\p{L}\\p{M}\\p{N}_@+-]|\\.[\\p{L}\\p{M}\\p{N}]';
/** A character of an address's local part: before one, the email is the end of another address. */
const LOCAL_PART = '[\\p{L}\\p{M}\\p{N}_.%+-]';
/** After the email, another address's domain goes on (a full stop then a letter is one; a sentence's full stop is not). */
const DOMAIN_GOES_ON = '[\\p{L}\\p{M}\\p{N}_%+-]|\\.[\\p{L}\\p{M}\\p{N}]';
/** Shortest name replaced inside a longer text on its own. */
const MIN_NAME_IN_TEXT = 2;

/** The person's data as a set of values (their email and names, lower-cased; the full name with one space). */
export function personalText(values: Iterable<string>): PersonalText {
  const whole = new Set([...values].map((value) => value.trim().toLowerCase()).filter(Boolean));
  const emails = [...whole].filter((value) => value.includes('@'));
  const names = [...whole].filter((value) => !value.includes('@') && value.length >= MIN_NAME_IN_TEXT);
  const byLength = (a: string, b: string) => b.length - a.length;
  const parts = [
    ...emails.sort(byLength).map((email) => `(?<!${LOCAL_PART})${escaped(email)}(?!${DOMAIN_GOES_ON})`),
    ...names.sort(byLength).map((name) => `(?<!${NAME_JOINED_BEFORE})${escaped(name).replace(/\s+/g, '\\s+')}(?!${NAME_JOINED_AFTER})`),
  ];
  const pattern = parts.length ? new RegExp(parts.join('|'), 'giu') : undefined;
  return {
    is: (value) => whole.has(value.trim().toLowerCase()),
    scrub: (text) => (whole.has(text.trim().toLowerCase()) ? ANONYMOUS : pattern ? text.replace(pattern, ANONYMOUS) : text),
  };
}

/** Fields whose value is always an email or a name, whoever's: replaced whole. */
const PERSONAL_FIELDS = new Set(['email', 'first_name', 'last_name', 'name']);

/** A JSON value (an audit entry's old or new values) with the person's data replaced, in every string at any depth. */
export function scrubPersonal(value: unknown, personal: PersonalText): unknown {
  if (typeof value === 'string') return personal.scrub(value);
  if (Array.isArray(value)) return value.map((entry) => scrubPersonal(entry, personal));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [key, PERSONAL_FIELDS.has(key) && entry ? ANONYMOUS : scrubPersonal(entry, personal)]),
    );
  }
  return value;
}
