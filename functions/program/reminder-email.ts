import type { ReminderFrequency } from '../../shared/program-types';
import { emailLayout, escapeHtml, type ListEmailMessage } from '../lib/email';
import type { ProgramModule } from './content';

export interface ReminderEmailInput {
  to: string;
  firstName?: string;
  module: ProgramModule;
  percent: number;
  frequency: ReminderFrequency;
  programTitle: string;
  baseUrl: string;
  /** `<app>/api/notifications/unsubscribe?token=…` (functions/lib/unsubscribe-token.ts). */
  unsubscribeUrl: string;
}

/**
 * The reminder: the next module, progress, a link to it, a link to change how often reminders
 * come and a visible "Stop these reminders" link; its List-Unsubscribe headers let the mail
 * client offer the same in one click (RFC 8058; docs/product.md#unsubscribe).
 */
export function reminderEmail(input: ReminderEmailInput): ListEmailMessage {
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
    `Stop these reminders: ${input.unsubscribeUrl}`,
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
      `<p style="font-size:13px;color:#4b5563"><a href="${escapeHtml(input.unsubscribeUrl)}" style="${link}">Stop these reminders</a></p>`,
    ].join('\n'),
  );
  const headers = [
    { name: 'List-Unsubscribe', value: `<${input.unsubscribeUrl}>` },
    { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
  ];
  return { to: input.to, subject, text, html, headers };
}
