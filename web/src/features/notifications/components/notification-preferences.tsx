import { REMINDER_FREQUENCIES } from '@shared/constants';
import type { ReminderFrequency } from '@shared/program-types';
import { Button } from '@/components/ui/button';
import { useUser } from '@/lib/auth';
import { timeZoneChoices } from '@/utils/time-zones';
import { useNotificationPreferences } from '../api/get-notification-preferences';
import { useUpdateNotificationPreferences } from '../api/update-notification-preferences';
import '../notifications.css';

const LABELS: Record<ReminderFrequency, { title: string; hint: string }> = {
  daily: { title: 'Daily', hint: 'A short reminder each day.' },
  weekly: { title: 'Weekly', hint: 'One reminder a week.' },
  off: { title: 'Off', hint: 'No reminder emails.' },
};

/**
 * 'Notification preferences': daily, weekly or no reminder emails, the time zone of their
 * morning, and, when they are paused after 4 weeks away, a button to resume them
 * (docs/product.md#2-screens-and-routes Settings).
 */
export function NotificationPreferences() {
  const { data: user } = useUser();
  const preferences = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();
  const current = preferences.data?.reminder_frequency;
  const timeZone = preferences.data?.time_zone;

  return (
    <section className="np-card" aria-labelledby="notification-preferences-title">
      <h2 id="notification-preferences-title">Notification preferences</h2>
      {preferences.isPending ? (
        <p className="np-muted" role="status">
          Loading preferences…
        </p>
      ) : preferences.isError ? (
        <p className="np-error" role="alert">
          Unable to load notification preferences.
        </p>
      ) : (
        <fieldset className="np-options">
          <legend>Reminder emails</legend>
          {REMINDER_FREQUENCIES.map((frequency) => (
            <label key={frequency} className={`np-option ${current === frequency ? 'np-option--checked' : ''}`}>
              <input
                type="radio"
                name="reminder_frequency"
                value={frequency}
                checked={current === frequency}
                onChange={() => update.mutate({ reminder_frequency: frequency })}
              />
              <span>
                <span className="np-option__title">{LABELS[frequency].title}</span>
                <span className="np-option__hint">{LABELS[frequency].hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {preferences.data?.reminders_paused && (
        <div className="np-paused" role="status">
          <p>Reminders are paused: you haven't been active for 4 weeks.</p>
          <Button type="button" onClick={() => update.mutate({ resume: true })} disabled={update.isPending}>
            Resume reminders
          </Button>
        </div>
      )}
      {timeZone && (
        <div className="np-zone">
          <label htmlFor="reminder-time-zone">Time zone</label>
          <select id="reminder-time-zone" value={timeZone} onChange={(event) => update.mutate({ time_zone: event.target.value })}>
            {timeZoneChoices(timeZone).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
          <p className="np-option__hint">Reminders arrive at about 9:00 in the morning in this time zone.</p>
        </div>
      )}
      <p className="np-note">
        {user?.email ? (
          <>
            Reminders are sent to your primary account email, <strong>{user.email}</strong>.
          </>
        ) : (
          'Reminders are sent to your primary account email.'
        )}
      </p>
      <div aria-live="polite" className="np-status">
        {update.isSuccess && <p className="np-success">Preferences updated.</p>}
      </div>
      {update.isError && (
        <p className="np-error" role="alert">
          Unable to update notification preferences.
        </p>
      )}
    </section>
  );
}
