import type { ReminderFrequency } from '../../shared/program-types';
import { emailLayout, escapeHtml, type EmailMessage } from '../lib/email';
import type { ProgramModule } from './content';

export interface ReminderEmailInput {
  to: string;
  firstName?: string;
  module: ProgramModule;
  percent: number;
  frequency: ReminderFrequency;
  programTitle: string;
  baseUrl: string;
}

/** The reminder: the next module, progress, a link to it and a link to change how often reminders come. */
export function reminderEmail(input: ReminderEmailInput): EmailMessage {
  const name = input.firstName?.trim() || 'there';
  const moduleUrl = `${input.baseUrl}/modules/${encodeURIComponent(input.module.slug)}`;
  const settingsUrl = `${input.baseUrl}/settings`;
  const cadence = input.frequency === 'weekly' ? 'once a week' : 'every day';
  const next = `Week ${input.module.week_number} • ${input.module.title}`;
  const subject = `Next up: ${input.module.title}`;
  const text = [
    `Hi ${name},`,
    `You're ${input.percent}% of the way through the ${input.programTitle}. Your next module is ready:`,
    `${next}\n${input.module.summary}`,
    `Continue where you left off: ${moduleUrl}`,
    `You get these reminders ${cadence}. To change how often they come, visit ${settingsUrl}`,
  ].join('\n\n');
  const link = 'color:#1d4ed8';
  const html = emailLayout(
    subject,
    [
      `<p>Hi ${escapeHtml(name)},</p>`,
      `<p>You're <strong>${input.percent}%</strong> of the way through the ${escapeHtml(input.programTitle)}. Your next module is ready:</p>`,
      `<p style="font-size:16px;margin:16px 0 4px"><strong>${escapeHtml(next)}</strong></p>`,
      `<p style="margin:0 0 16px">${escapeHtml(input.module.summary)}</p>`,
      `<p><a href="${escapeHtml(moduleUrl)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Continue the module</a></p>`,
      `<p style="font-size:13px;color:#4b5563">You get these reminders ${cadence}. <a href="${escapeHtml(settingsUrl)}" style="${link}">Change how often reminders come</a>.</p>`,
    ].join('\n'),
  );
  return { to: input.to, subject, text, html };
}
