/** The parts of the signed-in user the greeting may draw on. */
export interface GreetingSource {
  first_name?: string | null;
  name?: string | null;
  email?: string | null;
}

/**
 * The name in 'Welcome, {first name}!' (docs/product.md#2-screens-and-routes): the first name, else the first word of the
 * full name, else the email's local part, else 'there'. Blank values count as missing.
 */
export function greetingName(user: GreetingSource | null | undefined): string {
  const first = user?.first_name?.trim();
  if (first) return first;
  const firstWord = user?.name?.trim().split(/\s+/)[0];
  if (firstWord) return firstWord;
  const local = user?.email?.split('@')[0]?.trim();
  if (local) return local;
  return 'there';
}

/** The account snapshot's name line: the full name, else first + last, else 'Not provided'. */
export function displayName(
  user: { name?: string | null; first_name?: string | null; last_name?: string | null } | null | undefined,
): string {
  const name = user?.name?.trim();
  if (name) return name;
  const joined = [user?.first_name?.trim(), user?.last_name?.trim()].filter(Boolean).join(' ');
  return joined || 'Not provided';
}
