/** Response shapes and error codes of the `learner` group (docs/product.md#7-the-calls-it-makes). */
import * as z from 'zod/mini';
import { REMINDER_FREQUENCIES } from '../constants';
import { DOWNLOAD, isoTime, learnerModule, learnerTask, moduleLink, moduleState, ok, openModule, THROTTLED, type RouteDoc } from './common';

const NOT_ENROLLED = { 404: ['not_enrolled'] } as const;
const frequency = z.object({ reminder_frequency: z.enum(REMINDER_FREQUENCIES) });
const timeZone = z.string().check(z.describe('IANA time zone of the reminders, sent at 09:00 local time (default "UTC")'));
const paused = {
  reminders_paused: z
    .boolean()
    .check(z.describe('true after 4 weeks without activity: reminders wait until the learner comes back or resumes them')),
};
/** `GET`/`POST /api/settings/notifications` */
export const notificationPreferences = z.object({ ...frequency.shape, time_zone: timeZone, ...paused });
/** `GET /api/dashboard` */
export const dashboardSummary = z.object({ percent_complete: z.number(), program_title: z.string() });
export const dashboardWeek = z.object({ week_number: z.number(), modules: z.array(learnerModule) });
/** `GET /api/dashboard/state` */
export const dashboardState = z.object({
  grid: z.array(dashboardWeek),
  open_module: z.nullable(openModule),
  percent_complete: z.number(),
});
/** `POST /api/enroll` */
export const enrollResponse = z.object({ message: z.string() });
export const moduleSection = z.object({ heading: z.string(), body: z.string() });
export const moduleDetail = z.object({
  module_id: z.string(),
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  week_number: z.number(),
  week_title: z.string(),
  position: z.number(),
  state: moduleState,
  sections: z.array(moduleSection),
  tasks: z.array(learnerTask),
});
/** `GET /api/modules/{slug}` */
export const modulePage = z.object({
  module: moduleDetail,
  next_module: z.nullable(moduleLink),
  percent_complete: z.number(),
  program_title: z.string(),
});
/** `PUT /api/modules/{slug}/tasks/{task_id}` */
export const taskSave = z.object({
  task: learnerTask,
  module_id: z.string(),
  slug: z.string(),
  module_state: moduleState,
  completed_now: z.boolean(),
  percent_complete: z.number(),
  next_module: z.nullable(moduleLink),
  open_module: z.nullable(openModule),
});
/** `GET /api/certificate` */
export const certificateView = z.object({
  verification_code: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  program_title: z.string(),
  completed_at: isoTime,
  issued_at: isoTime,
  verify_url: z.string(),
});
/** `POST /api/account/delete` */
export const accountDeleteResponse = z.object({
  ok: z.literal(true),
  status: z.literal('deleted'),
  deleted_at: isoTime,
  erase_after: isoTime,
});
/** The audit part of an account export: a bounded page of entries and where the older ones continue. */
const auditExportPage = { audit_entries: z.array(z.unknown()), audit_next_cursor: z.nullable(z.string()) };
/** `module_locked`: the module to complete first. */
const MODULE_LOCKED = {
  requires: z.nullable(z.object({ slug: z.string(), title: z.string() })).check(z.describe('module_locked: the module to complete first')),
};
const unsubscribeQuery = z.object({ token: z.string().check(z.describe('the signed token from the reminder email')) });

export const learnerDocs: Record<string, RouteDoc> = {
  'GET /api/dashboard': {
    summary: "The learner's progress headline.",
    responses: { 200: dashboardSummary },
    errors: NOT_ENROLLED,
  },
  'GET /api/dashboard/state': {
    summary: 'The module grid by week and the open module.',
    responses: { 200: dashboardState },
    errors: NOT_ENROLLED,
  },
  'POST /api/enroll': {
    summary: 'Enrolls the learner (also when already enrolled); an admin must ask for a preview.',
    body: z.object({ preview: z.optional(z.boolean()).check(z.describe('admins only: enroll to preview the program')) }),
    responses: { 200: enrollResponse },
    errors: { 409: ['preview_required'] },
  },
  'GET /api/settings/notifications': {
    summary: 'The reminder email preferences: frequency, time zone and whether reminders are paused.',
    responses: { 200: notificationPreferences },
    errors: {},
  },
  'POST /api/settings/notifications': {
    summary:
      'Sets the reminder frequency, the time zone, or both, and/or resumes paused reminders (at least one); a bad value changes nothing.',
    body: z.object({
      reminder_frequency: z.optional(z.string().check(z.describe('one of the reminder frequencies (docs/product.md)'))),
      time_zone: z.optional(timeZone),
      resume: z.optional(z.literal(true).check(z.describe('resumes reminders paused after 4 weeks without activity'))),
    }),
    responses: { 200: notificationPreferences },
    errors: { 400: ['invalid_reminder_frequency', 'invalid_time_zone', 'invalid_resume'] },
  },
  'GET /api/notifications/unsubscribe': {
    summary: "The reminder email's unsubscribe link: changes nothing, sends a valid token on to the confirmation page.",
    description: '303 to <app>/unsubscribe?token=…, whose one button POSTs to this address.',
    query: unsubscribeQuery,
    responses: { 303: ok },
    headers: { Location: '<app>/unsubscribe?token=…, the confirmation page' },
    errors: { 400: ['missing_token', 'invalid_token'], 404: ['not_found'] },
  },
  'POST /api/notifications/unsubscribe': {
    summary: 'One-click unsubscribe (RFC 8058): turns reminder emails off; no session needed, the token names the account.',
    description: 'Body `List-Unsubscribe=One-Click` as application/x-www-form-urlencoded (mail providers) or the same key as JSON.',
    query: unsubscribeQuery,
    body: z.object({ 'List-Unsubscribe': z.literal('One-Click') }),
    responses: { 200: frequency },
    errors: { 400: ['missing_token', 'invalid_token', 'invalid_unsubscribe_body'], 404: ['not_found'] },
  },
  'GET /api/notifications/subscription': {
    summary:
      'What the unsubscribe page shows: the address the reminders go to, their frequency and whether they are paused; no session, the token names the account.',
    query: unsubscribeQuery,
    responses: { 200: z.object({ email: z.string(), ...frequency.shape, ...paused }) },
    errors: { 400: ['missing_token', 'invalid_token'], 404: ['not_found'] },
  },
  'POST /api/notifications/subscription': {
    summary: 'The unsubscribe page\'s choices ("weekly instead", back on, off) by the same token; audited as the account\'s own change.',
    description:
      'JSON only (no form body): only the page sends it. Daily or weekly also resumes paused reminders (the paused email links here).',
    query: unsubscribeQuery,
    body: z.object({ reminder_frequency: z.string().check(z.describe('one of the reminder frequencies (docs/product.md)')) }),
    responses: { 200: frequency },
    errors: { 400: ['missing_token', 'invalid_token', 'invalid_reminder_frequency'], 404: ['not_found'], 409: ['conflict'] },
  },
  'POST /api/settings/password': {
    summary: 'Changes the password; this session gets a fresh cookie, every other one ends.',
    headers: { 'Set-Cookie': 'a fresh session cookie for this session' },
    responses: { 200: ok },
    errors: {
      400: ['invalid_current_password', 'weak_password', 'common_password', 'password_mismatch', 'missing_fields'],
      409: ['password_changed_concurrently'],
      429: THROTTLED,
    },
  },
  'GET /api/modules/{slug}': {
    summary: 'A module page with the learner’s saved work.',
    responses: { 200: modulePage },
    details: MODULE_LOCKED,
    errors: { 403: ['module_locked'], 404: ['not_found', 'not_enrolled'] },
  },
  'PUT /api/modules/{slug}/tasks/{task_id}': {
    summary: 'Saves a task: `done` (checkbox) or `answer` (text).',
    responses: { 200: taskSave },
    details: MODULE_LOCKED,
    errors: { 403: ['module_locked'], 404: ['not_found', 'not_enrolled'] },
  },
  'GET /api/account/export': {
    summary: "The account's data as a JSON file download (Content-Disposition: attachment).",
    headers: { 'Content-Disposition': DOWNLOAD },
    description:
      'The newest audit entries come with the file; `audit_next_cursor` (null when none is left) is sent back as `audit_cursor` for the next older ones, in an answer of `audit_entries` and `audit_next_cursor` only. An account whose data does not fit in one answer (more audit history than one answer holds, or more than EXPORT_INLINE_MAX_BYTES of JSON) is answered `{ download_url, expires_at }` instead: a link, valid for minutes, to the whole file with every audit entry (a presigned S3 GET in the cloud, a local address served once locally).',
    responses: {
      200: z.union([
        z.looseObject({
          format_version: z.number(),
          exported_at: isoTime,
          profile: z.looseObject({ id: z.string(), email: z.string() }),
          notification_preferences: z.looseObject({}),
          enrollments: z.array(z.unknown()),
          progress: z.array(z.unknown()),
          task_answers: z.array(z.unknown()),
          sessions: z.array(z.unknown()),
          ...auditExportPage,
        }),
        z.looseObject(auditExportPage),
        z.object({
          download_url: z.string().check(z.describe('the whole file (Content-Disposition: attachment), for one download')),
          expires_at: isoTime,
        }),
      ]),
    },
    errors: { 400: ['invalid_cursor'] },
  },
  'POST /api/account/delete': {
    summary: 'Deletes the own account (soft delete; erased after the retention period); the session ends.',
    headers: { 'Set-Cookie': 'clears the session cookie and the signed-in hint' },
    responses: { 200: accountDeleteResponse },
    errors: { 400: ['invalid_password'], 403: ['admin_self_delete'], 429: THROTTLED },
  },
  'GET /api/certificate': {
    summary: "The learner's certificate of completion (issued on first request).",
    responses: { 200: certificateView },
    details: {
      completed: z.number().check(z.describe('program_not_completed: modules completed')),
      total: z.number().check(z.describe('program_not_completed: modules in the program')),
    },
    errors: { 403: ['program_not_completed', 'certificate_revoked'], 404: ['not_enrolled'] },
  },
};
