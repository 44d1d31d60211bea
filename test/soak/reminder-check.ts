import type { AccountModel } from './oracle';
import type { World } from './world';

/**
 * The reminder invariant: every learner due a reminder on a simulated day got exactly one (or the
 * "paused" email that replaces it), or is accounted for; nobody got two on one local day, and
 * nobody got one who was not due. Due, by the product's rules (docs/product.md "Reminders"),
 * computed here from the oracle's own timeline: verified, active and unlocked, enrolled with a
 * module left, reminders daily (or weekly: on the weekday, in the learner's current zone, of the
 * moment they enrolled), at the first hourly
 * run at or after 09:00 in the learner's zone. Accounted for: a state that changed within the
 * hour around the run (either answer is right), the SES quota spent over the run and its retries.
 */
const HOUR_MS = 3600 * 1000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The learner's local day, weekday and minute of the day at `ms` (Intl, independent of the product's own helper). */
export function localParts(zone: string, ms: number): { day: string; weekday: number; minutes: number } {
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
      weekday: 'short',
    });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday);
  return { day: `${parts.year}-${parts.month}-${parts.day}`, weekday, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

interface State {
  frequency: AccountModel['frequency'];
  timeZone: string;
  status: string;
  verified: boolean;
  enrolled: boolean;
  finished: boolean;
}

/** The learner's reminder-relevant state at `at`, from the oracle's timeline. */
function stateAt(model: AccountModel, at: number): State {
  const state: State = { frequency: 'daily', timeZone: 'UTC', status: 'active', verified: false, enrolled: false, finished: false };
  for (const event of model.timeline) {
    if (event.at > at) break;
    if (event.frequency) state.frequency = event.frequency;
    if (event.timeZone) state.timeZone = event.timeZone;
    if (event.status) state.status = event.status;
    if (event.verified !== undefined) state.verified = event.verified;
    if (event.enrolled) state.enrolled = true;
    if (event.finished !== undefined) state.finished = event.finished;
  }
  return state;
}

const changedNear = (model: AccountModel, at: number) =>
  model.timeline.some((event) => !event.activity && Math.abs(event.at - at) <= HOUR_MS && event.at !== model.registeredAt);

export function checkReminders(world: World): Record<string, number | string> {
  const quota = world.faults.windowOf('ses_quota_spent');
  const inQuota = (at: number) =>
    Boolean(quota && at >= world.clock.hourStart(quota.from) && at < world.clock.hourStart(quota.to) + HOUR_MS);
  const end = world.clock.now();
  const examples: string[] = [];
  const figures = {
    learner_days_due: 0,
    sent: 0,
    paused_emails: 0,
    missed: 0,
    twice: 0,
    not_due: 0,
    accounted_quota: 0,
    accounted_changed: 0,
    sent_outside_local_9: 0,
  };
  for (const model of world.oracle.accounts.values()) {
    if (model.role !== 'learner' || model.enrolledAt === undefined) continue;
    const mails = model.emails.flatMap((email) => world.twin.ses.mailbox.to(email, /^(Next up:|We've paused your reminders)/));
    const byDay = new Map<string, number>();
    for (const mail of mails) {
      const zone = stateAt(model, mail.at).timeZone;
      const local = localParts(zone, mail.at);
      byDay.set(local.day, (byDay.get(local.day) ?? 0) + 1);
      if (mail.subject.startsWith('Next up:')) figures.sent += 1;
      else figures.paused_emails += 1;
      if (local.minutes < 9 * 60 || local.minutes >= 10 * 60 + 30) {
        figures.sent_outside_local_9 += 1;
        if (examples.length < 8)
          examples.push(
            `${zone} ${local.day} ${String(Math.floor(local.minutes / 60)).padStart(2, '0')}:${String(local.minutes % 60).padStart(2, '0')}`,
          );
      }
      const state = stateAt(model, mail.at);
      const eligible = state.verified && state.status === 'active' && state.enrolled && !state.finished && state.frequency !== 'off';
      if (!eligible && !changedNear(model, mail.at)) {
        figures.not_due += 1;
        world.record.violate(
          'reminders',
          `${model.email} got "${mail.subject}" at ${new Date(mail.at).toISOString()} while ${JSON.stringify(state)}`,
        );
      }
    }
    for (const [day, count] of byDay) {
      if (count < 2) continue;
      figures.twice += 1;
      world.record.violate('reminders', `${model.email} got ${count} reminders on local day ${day}`);
    }
    // every hourly run after enrolling: due at the run that is the learner's local 09:00 hour
    const enrolledAt = model.enrolledAt;
    for (let at = Math.ceil(enrolledAt / HOUR_MS) * HOUR_MS; at < end - HOUR_MS; at += HOUR_MS) {
      const state = stateAt(model, at);
      const local = localParts(state.timeZone, at);
      if (local.minutes < 9 * 60 || local.minutes >= 10 * 60) continue;
      const due =
        state.verified &&
        state.status === 'active' &&
        state.enrolled &&
        !state.finished &&
        (state.frequency === 'daily' || (state.frequency === 'weekly' && local.weekday === localParts(state.timeZone, enrolledAt).weekday));
      if (!due) continue;
      figures.learner_days_due += 1;
      if (byDay.get(local.day)) continue;
      if (changedNear(model, at)) {
        figures.accounted_changed += 1;
        continue;
      }
      if (inQuota(at)) {
        figures.accounted_quota += 1;
        continue;
      }
      figures.missed += 1;
      if (figures.missed <= 20)
        world.record.violate('reminders', `${model.email} (${state.timeZone}, ${state.frequency}) was due on ${local.day} and got nothing`);
    }
  }
  return { ...figures, ...(examples.length ? { outside_local_9_examples: examples.join('; ') } : {}) };
}
