/** The account item (pk USER#<id>, sk PROFILE) as stored. */
/** `purging`: a hard delete is under way (functions/admin/hard-delete.ts); the account is out of every list and cannot sign in. */
export type UserStatus = 'active' | 'locked' | 'deleted' | 'purging';
export type Role = 'admin' | 'learner';
export type ReminderFrequency = 'daily' | 'weekly' | 'off';
/** A browser's key (the start of its id's sha256) → the day (days since 1970-01-01) of its last sign-in. */
export type KnownBrowsers = Record<string, number>;
/** Why mail to the address is held back: a hard bounce or a spam complaint. */
export type EmailSuppression = 'bounce' | 'complaint';

export interface UserRecord {
  id: string;
  email: string;
  /** Lower-cased, trimmed: the uniqueness and lookup key. */
  email_lower: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  role: Role;
  verified: boolean;
  status: UserStatus;
  is_locked: boolean;
  /** Bumped to end every session of the account at once (lock, reset, "invalidate sessions"). */
  session_version: number;
  reminder_frequency: ReminderFrequency;
  /** IANA zone of the learner's reminders (functions/lib/time-zone.ts); absent reads as UTC. */
  time_zone?: string;
  created_at: string;
  updated_at: string;
  last_login_at?: string;
  /** The browsers the account signed in from, for the new-sign-in notice (functions/accounts/known-browsers.ts). */
  known_browsers?: KnownBrowsers;
  /** The one sign-in challenge whose code may still open a session (functions/accounts/login-challenge.ts). */
  login_challenge?: string;
  /**
   * Until when an administrator who must use a passkey may sign in once with the password and
   * the emailed code (an operator's `npm run make-admin -- <email> --allow-password-sign-in`,
   * functions/accounts/admin-passkey-rule.ts); removed by the sign-in that uses it.
   */
  password_sign_in_until?: string;
  last_progress_at?: string;
  last_enrollment_at?: string;
  /** UTC day of the last login or task activity (functions/lib/activity.ts). */
  last_active_day?: string;
  deleted_at?: string;
  deleted_reason?: string;
  /** `self` when the owner deleted the account (only then may it restore itself). */
  deleted_by?: 'self';
  /** Set by the SES bounce/complaint handler (functions/lib/email-suppression.ts): reminders stop. */
  email_suppressed?: EmailSuppression;
  email_suppressed_at?: string;
  /**
   * When the reminder worker paused reminders after 4 weeks without activity
   * (functions/program/reminder-pause.ts); removed by any activity, the resume link or Settings.
   */
  reminders_paused_at?: string;
  /** When paused reminders were last resumed: the inactivity clock starts again there. */
  reminders_resumed_at?: string;
  /** Optimistic-concurrency counter for read-modify-write updates. */
  version: number;
}

/** The user as the SPA sees it (`GET /api/auth/me`): never the hash or internal counters. */
export function publicUser(user: UserRecord) {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    name,
    role: user.role,
    verified: user.verified,
  };
}
