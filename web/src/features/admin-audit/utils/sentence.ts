/**
 * Audit entries as readable sentences ("Admin locked Maya Okafor"), shown beside the action key.
 * The person is named from what the entry itself recorded (names or email in its values); no
 * extra reads. Unknown keys fall back to the key itself, never to a guess.
 */
export interface SentenceEntry {
  action?: string | null;
  actor_email?: string | null;
  actor_user_id?: string | null;
  entity_type?: string | null;
  entity_id?: string | null;
  old_values?: unknown;
  new_values?: unknown;
}

/** Values recorded as an object, or null (older entries may hold a string or nothing). */
export const asRecord = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

const str = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : '');

/** Who the entry is about, from the names or email it recorded, else "user <id>". */
export function targetName(entry: SentenceEntry): string {
  for (const values of [asRecord(entry.new_values), asRecord(entry.old_values)]) {
    if (!values) continue;
    const name = [str(values.first_name), str(values.last_name)].filter(Boolean).join(' ');
    if (name) return name;
    if (str(values.email)) return str(values.email);
  }
  if (entry.entity_type === 'user' && entry.entity_id) return `user ${entry.entity_id}`;
  return [entry.entity_type, entry.entity_id].filter(Boolean).join(' ') || 'an unknown target';
}

/** The sentence of each known action key; {target} is the person it is about. */
const PHRASES: Record<string, string> = {
  'admin.user.lock': 'Admin locked {target}',
  'admin.user.unlock': 'Admin unlocked {target}',
  'admin.user.update': "Admin edited {target}'s profile",
  'admin.user.soft_delete': 'Admin soft-deleted {target}',
  'admin.user.restore': 'Admin restored {target}',
  'admin.user.hard_delete': 'Admin deleted {target} for good',
  'system.user.hard_delete': 'The system erased {target} after the retention period',
  'notifications.unsubscribe': '{target} stopped reminder emails',
  'notifications.link_frequency': "{target} changed how often reminder emails come, from an email's link",
  'admin.user.invalidate_sessions': 'Admin signed {target} out everywhere',
  'admin.user.reset_password': 'Admin sent {target} a password reset',
  'admin.passkey_removed': "Admin removed one of {target}'s passkeys",
  'admin.module.force_complete': 'Admin marked a module completed for {target}',
  'admin.module.reopen': 'Admin reopened a module for {target}',
  'admin.module.lock': 'Admin locked a module for {target}',
  'admin.module.unlock': 'Admin unlocked a module for {target}',
  'admin.program.draft_save': 'Admin saved a draft of the program',
  'admin.program.import': 'Admin imported program content as the draft',
  'admin.program.restore': 'Admin restored a program version as the draft',
  'admin.program.publish': 'Admin published a new program version',
  'admin.export_users': 'Admin exported the users list as CSV',
  'admin.export_audit': 'Admin exported the audit log as CSV',
  'auth.register': '{target} registered',
  'auth.email_verified': '{target} verified their email',
  'auth.login': '{target} signed in',
  'auth.login_failed': 'A sign-in failed for {target}',
  'auth.login_code_resent': '{target} asked for a new sign-in code',
  'auth.logout': '{target} signed out',
  'auth.password_changed': '{target} changed their password',
  'auth.password_reset': '{target} reset their password',
  'auth.password_reset_requested': '{target} asked for a password reset',
};

export const hasSentence = (entry: SentenceEntry) => Boolean(entry.action && PHRASES[entry.action]);

export function auditSentence(entry: SentenceEntry): string {
  const phrase = entry.action ? PHRASES[entry.action] : undefined;
  if (!phrase) return entry.action || '—';
  // For the person's own actions, the actor's email names them better than "user <id>".
  const own =
    (entry.action!.startsWith('auth.') || entry.action!.startsWith('notifications.')) &&
    entry.actor_email &&
    !asRecord(entry.new_values)?.first_name;
  const target = own ? entry.actor_email! : targetName(entry);
  // Never re-cased: an email address stays as it was written.
  return phrase.replace('{target}', target);
}

export interface ValueChange {
  key: string;
  before: string;
  after: string;
}

const show = (value: unknown) => (value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/** The keys whose value differs between Before and After, for the on-demand diff. */
export function valueDiff(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): ValueChange[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
  return keys
    .filter((key) => JSON.stringify(before?.[key]) !== JSON.stringify(after?.[key]))
    .map((key) => ({ key, before: show(before?.[key]), after: show(after?.[key]) }));
}
