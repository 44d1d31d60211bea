import { Link } from 'react-router';
import type { ReminderFrequency } from '@shared/program-types';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useLinkedSubscription, useSetLinkedFrequency } from '../api/unsubscribe';
import '../notifications.css';

const INVALID_LINK = 'This unsubscribe link is not valid. You can turn reminders off in Settings.';

/** What went wrong, in words (the API's `error` codes of docs/product.md#unsubscribe). */
function failure(error: unknown, fallback: string): string {
  const code = error instanceof ApiError ? error.code : undefined;
  if (code === 'invalid_token' || code === 'missing_token') return INVALID_LINK;
  if (code === 'not_found') return 'This account no longer exists, so it gets no reminders.';
  return fallback;
}

const NOW: Record<ReminderFrequency, string> = {
  daily: 'You get a reminder every day.',
  weekly: 'You get one reminder a week.',
  off: 'Reminders are already off: you get no reminder emails.',
};

/** Reminders paused after 4 weeks away (the paused email's link opens this page). */
const PAUSED = "Your reminders are paused: you haven't been active for 4 weeks.";

/** A paused learner's choices: resume at the frequency they had, or stop them. */
const pausedChoices = (frequency: ReminderFrequency): Array<{ to: ReminderFrequency; label: string }> => [
  { to: frequency, label: 'Resume reminders' },
  { to: 'off', label: 'Stop these reminders' },
];

/** What the page says once a choice is saved. */
const SAVED: Record<ReminderFrequency, string> = {
  off: 'Reminders stopped. You will get no more reminder emails.',
  weekly: 'Done: from now on you get one reminder a week.',
  daily: 'Reminders are back on: you get a reminder every day.',
};

/** The choices besides the current frequency, the main one first. */
const CHOICES: Record<ReminderFrequency, Array<{ to: ReminderFrequency; label: string }>> = {
  daily: [
    { to: 'off', label: 'Stop these reminders' },
    { to: 'weekly', label: 'Weekly instead' },
  ],
  weekly: [
    { to: 'off', label: 'Stop these reminders' },
    { to: 'daily', label: 'Daily instead' },
  ],
  off: [
    { to: 'daily', label: 'Turn reminders back on' },
    { to: 'weekly', label: 'Weekly reminders' },
  ],
};

/**
 * The page a reminder's "Stop these reminders" link opens (via the API's GET, which changes
 * nothing: mail scanners follow links). It names the address the reminders go to and how often
 * they come, then offers to stop them, to get them weekly instead, or, when they are off, to turn
 * them back on; when they are paused (the paused email links here too), to resume or stop them.
 * No sign-in needed: the link's signed token names the account.
 */
export function UnsubscribeConfirm({ token }: { token: string | null }) {
  const subscription = useLinkedSubscription(token);
  const change = useSetLinkedFrequency(token ?? '');
  // paused only matters while reminders are on: off already sends nothing
  const paused = Boolean(subscription.data?.reminders_paused && subscription.data.reminder_frequency !== 'off');
  return (
    <main className="settings-page">
      <section className="np-card" aria-labelledby="unsubscribe-title">
        <h1 id="unsubscribe-title">Reminder emails</h1>
        {!token ? (
          <p className="np-error" role="alert">
            {INVALID_LINK}
          </p>
        ) : subscription.isPending ? (
          <p className="np-muted" role="status">
            Loading…
          </p>
        ) : subscription.isError ? (
          <p className="np-error" role="alert">
            {failure(subscription.error, 'Unable to load your reminder settings. Please try again.')}
          </p>
        ) : (
          <>
            <p>
              Reminders go to <strong className="np-address">{subscription.data.email}</strong>.
            </p>
            {change.isSuccess ? (
              <p className="np-success" role="status">
                {SAVED[change.data.reminder_frequency]}
              </p>
            ) : (
              <p className="np-muted">{paused ? PAUSED : NOW[subscription.data.reminder_frequency]}</p>
            )}
            {subscription.data.reminder_frequency !== 'off' && !paused && !change.isSuccess && (
              <p className="np-muted">Stop the reminder emails about your next module? Nothing else changes in your account.</p>
            )}
            <div className="np-actions">
              {(paused ? pausedChoices(subscription.data.reminder_frequency) : CHOICES[subscription.data.reminder_frequency]).map(
                (choice, index) => (
                  <Button
                    key={choice.to}
                    variant={index === 0 ? 'primary' : 'secondary'}
                    disabled={change.isPending}
                    onClick={() => change.mutate(choice.to)}
                  >
                    {change.isPending && change.variables === choice.to ? (choice.to === 'off' ? 'Stopping…' : 'Saving…') : choice.label}
                  </Button>
                ),
              )}
            </div>
            {change.isError && (
              <p className="np-error" role="alert">
                {failure(
                  change.error,
                  change.variables === 'off'
                    ? 'Unable to stop the reminders. Please try again.'
                    : 'Unable to change the reminders. Please try again.',
                )}
              </p>
            )}
            <p className="np-note">
              You can also choose Daily, Weekly or Off in <Link to={paths.settings}>Settings</Link>.
            </p>
          </>
        )}
      </section>
    </main>
  );
}
