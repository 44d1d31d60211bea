/** Response shapes and error codes of the `admin` group (docs/product.md#7-the-calls-it-makes). */
import * as z from 'zod/mini';
import { programDocs } from './admin-program';
import {
  auditEntry,
  day,
  DOWNLOAD,
  EMAIL_ERRORS,
  isoTime,
  MESSAGE_DETAIL,
  moduleState,
  ok,
  page,
  PAGING_DETAILS,
  type RouteDoc,
} from './common';
import { CONTENT_ID_CHARS, USER_ID } from '../key-values';
import { PROGRAM_LIMITS } from '../program-authoring';
import { emailAddress, personName } from './auth';
import { passkeyList } from './passkeys';

/** An account's status as the admin API shows it (`purging`: a hard delete is under way). */
export const userStatus = z.enum(['active', 'locked', 'deleted', 'purging']);
export const role = z.enum(['learner', 'admin']);
const NO_USER = { 404: ['not_found'] } as const;
/** An account whose hard delete or erasure is under way refuses every change (functions/lib/account-states.ts). */
const BEING_ERASED = 'account_being_erased';
const text = z.optional(z.string());
const counts = z.record(z.string(), z.number());
const statusResult = z.looseObject({ ok: z.literal(true), status: userStatus, is_locked: z.boolean() });
/** `GET /api/admin/users` rows (docs/product.md#3-entities-and-their-fields "User list item"). */
export const userListItem = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  status: userStatus,
  is_locked: z.boolean(),
  created_at: isoTime,
  last_login_at: z.nullable(isoTime),
  role,
  completion_pct: z.number(),
  enrollments: z.number(),
  /** false: the account has not verified its email (a chip beside the status) */
  verified: z.boolean(),
});
/** One module of an enrollment as the drawer shows it ("Admin module"). */
export const adminModule = z.object({
  module_id: z.string(),
  title: z.string(),
  week_no: z.number(),
  module_number: z.number(),
  status: moduleState,
  started_at: z.nullable(isoTime),
  completed_at: z.nullable(isoTime),
});
/** An enrollment as the drawer shows it ("Enrollment"). */
export const adminEnrollment = z.object({
  id: z.string(),
  program_id: z.string(),
  program_title: z.string(),
  status: z.string(),
  percent_complete: z.number(),
  enrolled_at: isoTime,
  modules: z.array(adminModule),
});
/** A certificate as the drawer shows it (issued, perhaps revoked). */
export const adminCertificate = z.object({
  verification_code: z.string(),
  issued_at: isoTime,
  completed_at: isoTime,
  revoked_at: z.nullable(isoTime),
});
/** `GET /api/admin/users/{id}` ("User detail"). */
export const userDetail = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  status: userStatus,
  is_locked: z.boolean(),
  role,
  verified: z.nullable(z.boolean()),
  created_at: isoTime,
  last_login_at: z.nullable(isoTime),
  recent_activity: z.object({
    last_login_at: z.nullable(isoTime),
    last_progress_at: z.nullable(isoTime),
    last_enrollment_at: z.nullable(isoTime),
  }),
  retention_days: z.number(),
  deleted_at: z.nullable(isoTime),
  deleted_reason: z.nullable(z.string()),
  hard_delete_ready: z.boolean(),
  hard_delete_available_at: z.nullable(isoTime),
  enrollments: z.array(adminEnrollment),
  /** How many passkeys the account has (docs/security.md#account-security-center). */
  passkey_count: z.number(),
  /** SES reported a hard bounce or a spam complaint for the address. */
  email_suppressed: z.nullable(z.enum(['bounce', 'complaint'])),
  /** The learner's certificate of completion (docs/product.md#certificates), null when none was issued. */
  certificate: z.nullable(adminCertificate),
});
/** `POST /api/admin/users/{id}/soft-delete` */
export const softDeleteResult = z.object({ status: z.literal('deleted'), deleted_at: isoTime, deleted_reason: z.nullable(z.string()) });
/** `POST /api/admin/users/{id}/restore` */
export const restoreResult = z.object({ status: userStatus });
/** One day's count of a dashboard series. */
export const dailyCount = z.object({ date: day, count: z.number() });
const dailyCounts = z.array(dailyCount);
/** One module of the admin summary's funnel: learners who completed it and who have it open. */
export const funnelModule = z.object({
  module_id: z.string(),
  slug: z.string(),
  title: z.string(),
  week_number: z.number(),
  completed: z.number(),
  in_progress: z.number(),
});
/** `GET /api/admin/summary`. Rates are fractions (0–1); avg_completion and aggregate_pct are percents. */
export const adminSummary = z.object({
  as_of_utc: isoTime,
  /** '7d' = the 7-day completion window; anything else reads as the overall window. */
  dropoff_method: z.enum(['7d', 'overall']),
  cards: z.object({
    total_users: z.number(),
    total_enrollments: z.number(),
    avg_completion: z.number(),
    active_7d: z.number(),
    active_30d: z.number(),
    verification_rate: z.number(),
    week1_dropoff: z.number(),
    /** Enrollments at least 7 days old, the ones week1_dropoff measures: 0 means it measures no one. */
    week1_measured: z.number(),
  }),
  completion: z.object({ aggregate_pct: z.number() }),
  drill: z.object({ active_7d: z.string(), active_30d: z.string(), unverified: z.string(), week1_dropoff: z.string() }),
  series: z.object({ actives_7d_daily: dailyCounts, actives_30d_daily: dailyCounts }),
  /** Where learners stall: every module in program order, counted by the writes (docs/data-model.md "Module funnel"). */
  funnel: z.array(funnelModule),
});
/** A module override's answer (exported for the tests' response types). */
export const moduleOverride = z.looseObject({
  ok: z.literal(true),
  message: z.string(),
  module: z.looseObject({}),
  percent_complete: z.number(),
});
/** `GET /api/admin/users/{id}/hard-delete/preview` (exported for the tests' response types). */
export const hardDeletePreview = z.object({ counts, at_least: z.optional(z.array(z.string())) });
/** `GET /api/admin/audit-logs`: a page plus the date window it covers (exported for the tests' response types). */
export const auditLogPage = z.extend(page(auditEntry), { window_days: z.number(), date_from: day, date_to: day });
/** A CSV export's answer headers (functions/admin/exports.ts). */
const EXPORT_HEADERS = {
  'Content-Disposition': DOWNLOAD,
  'X-Export-Rows': 'the number of data rows in the file',
  'X-Export-Truncated': '`true` when the cap cut the export short (absent otherwise)',
};
const DATE_DETAILS = {
  field: z.string().check(z.describe('invalid_date: the query parameter at fault')),
  max_days: z.number().check(z.describe('date_range_too_long: the longest window')),
};
const moduleOverrideDoc = (what: string, refusals: string[]): RouteDoc => ({
  summary: `${what} a module for a learner (refusals: 409 with a human \`message\`).`,
  body: z.object({
    user_id: z.string().check(z.regex(USER_ID), z.describe("the learner's account id (UUID)")),
    module_id: z.string().check(z.maxLength(PROGRAM_LIMITS.idChars), z.regex(CONTENT_ID_CHARS), z.describe('a module id of the program')),
  }),
  responses: { 200: moduleOverride },
  details: MESSAGE_DETAIL,
  // 400 invalid_request: an id of another shape than the product issues (fields names it)
  errors: { 400: ['missing_fields', 'invalid_request'], 404: ['not_found'], 409: [...refusals, BEING_ERASED] },
});

export const adminDocs: Record<string, RouteDoc> = {
  'GET /api/admin/summary': {
    summary: 'The dashboard metrics.',
    responses: {
      200: adminSummary,
    },
    errors: {},
  },
  'GET /api/admin/users': {
    summary: 'Accounts, searched and filtered, a page at a time (docs/api.md#4-paging).',
    responses: { 200: page(userListItem) },
    details: PAGING_DETAILS,
    errors: { 400: ['invalid_cursor', 'page_needs_cursor', 'unknown_module', 'filter_not_combinable'] },
  },
  'GET /api/admin/users/export.csv': {
    summary: "The users list's rows as CSV, with the list's filters, every page (capped; X-Export-Truncated says so).",
    description: 'A text/csv attachment with a header row; formula-like cells are prefixed with an apostrophe.',
    contentType: 'text/csv',
    headers: EXPORT_HEADERS,
    responses: { 200: z.string() },
    errors: { 400: ['invalid_status', 'invalid_filter'] },
  },
  'GET /api/admin/users/{id}': { summary: 'One account in detail.', responses: { 200: userDetail }, errors: NO_USER },
  'PATCH /api/admin/users/{id}': {
    summary: 'Edits first name, last name or email (any of them); answers the updated detail.',
    body: z.object({ first_name: z.optional(personName), last_name: z.optional(personName), email: z.optional(emailAddress) }),
    responses: { 200: userDetail },
    errors: {
      400: [
        'missing_fields',
        'first_name_required',
        'first_name_invalid',
        'last_name_required',
        'last_name_invalid',
        'email_required',
        'invalid_email',
      ],
      404: ['not_found'],
      409: ['email_taken', 'already_deleted', BEING_ERASED],
    },
  },
  'DELETE /api/admin/users/{id}': {
    summary: 'Hard delete of a soft-deleted account after retention (202 while a heavy purge continues).',
    query: z.object({ confirm_email: text.check(z.describe("the account's email, typed by the admin")) }),
    responses: {
      200: z.looseObject({ deleted: z.literal(true), status: z.literal('done'), counts }),
      202: z.looseObject({ deleted: z.literal(false), status: z.literal('purging'), counts }),
    },
    details: { available_on: day.check(z.describe('retention_active: the first day the account can be erased')) },
    errors: { 400: ['email_mismatch', 'cannot_target_self'], 404: ['not_found'], 409: ['not_deleted', 'retention_active', 'conflict'] },
  },
  'POST /api/admin/users/{id}/lock': {
    summary: 'Locks an account; its sessions end.',
    responses: { 200: statusResult },
    errors: { 400: ['cannot_target_self'], 404: ['not_found'], 409: ['already_locked', 'already_deleted', BEING_ERASED] },
  },
  'POST /api/admin/users/{id}/unlock': {
    summary: 'Unlocks an account.',
    responses: { 200: statusResult },
    errors: { 404: ['not_found'], 409: ['not_locked', BEING_ERASED] },
  },
  'POST /api/admin/users/{id}/actions/invalidate-sessions': {
    summary: 'Ends every session of an account.',
    responses: { 200: ok },
    errors: { ...NO_USER, 409: [BEING_ERASED] },
  },
  'POST /api/admin/users/{id}/soft-delete': {
    summary: 'Soft-deletes an account (restorable during retention).',
    responses: { 200: softDeleteResult },
    errors: { 400: ['cannot_target_self'], 404: ['not_found'], 409: ['already_deleted', BEING_ERASED] },
  },
  'POST /api/admin/users/{id}/restore': {
    summary: 'Restores a soft-deleted account.',
    responses: { 200: restoreResult },
    errors: { 404: ['not_found'], 409: ['not_deleted', BEING_ERASED] },
  },
  'GET /api/admin/users/{id}/hard-delete/preview': {
    summary: 'What a hard delete would remove, by kind.',
    responses: { 200: hardDeletePreview },
    errors: NO_USER,
  },
  'GET /api/admin/users/{id}/hard-delete/status': {
    summary: 'Progress of a hard delete.',
    responses: {
      200: z.looseObject({
        status: z.enum(['purging', 'done']),
        step: z.optional(z.string()),
        counts,
        started_at: isoTime,
        finished_at: z.nullable(isoTime),
      }),
    },
    errors: NO_USER,
  },
  'GET /api/admin/users/{id}/audit-logs': {
    summary: "An account's audit entries, newest first (page size fixed at 25; unknown id: an empty page).",
    responses: { 200: page(auditEntry) },
    details: PAGING_DETAILS,
    errors: { 400: ['invalid_cursor', 'page_needs_cursor'] },
  },
  'POST /api/admin/users/{id}/reset-password': {
    summary: 'Emails the account a password reset link.',
    responses: { 200: z.object({ delivery: z.enum(['sent', 'sandbox', 'allowlist_block']) }) },
    errors: { 404: ['not_found'], 409: ['already_deleted', BEING_ERASED], ...EMAIL_ERRORS },
  },
  'POST /api/admin/users/{id}/certificate/revoke': {
    summary: "Revokes the account's certificate.",
    responses: { 200: z.object({ ok: z.literal(true), verification_code: z.string(), revoked_at: isoTime }) },
    errors: { 404: ['not_found', 'no_certificate'], 409: ['already_revoked', BEING_ERASED] },
  },
  'GET /api/admin/users/{id}/passkeys': {
    summary: "The account's passkeys.",
    responses: { 200: passkeyList },
    errors: { 404: ['not_found'] },
  },
  'DELETE /api/admin/users/{id}/passkeys/{passkey_id}': {
    summary: 'Removes one passkey of the account (audited; the owner gets a notice).',
    responses: { 200: ok },
    errors: { 404: ['not_found', 'passkey_not_found'], 409: [BEING_ERASED] },
  },
  'GET /api/admin/audit-logs': {
    summary: 'The audit log, filtered, within a date window (30 days by default, at most 366).',
    responses: { 200: auditLogPage },
    details: { ...PAGING_DETAILS, ...DATE_DETAILS },
    errors: { 400: ['invalid_cursor', 'page_needs_cursor', 'invalid_date', 'invalid_date_range', 'date_range_too_long'] },
  },
  'GET /api/admin/audit-logs/export.csv': {
    summary: "The audit log's entries as CSV, with the log's filters, every page (capped; X-Export-Truncated says so).",
    description: 'A text/csv attachment with a header row; formula-like cells are prefixed with an apostrophe.',
    contentType: 'text/csv',
    headers: EXPORT_HEADERS,
    responses: { 200: z.string() },
    details: DATE_DETAILS,
    errors: { 400: ['invalid_date', 'invalid_date_range', 'date_range_too_long'] },
  },
  'POST /api/admin/modules/unlock': moduleOverrideDoc('Unlocks', ['already_open', 'already_completed']),
  'POST /api/admin/modules/force-complete': moduleOverrideDoc('Marks complete', ['already_completed']),
  'POST /api/admin/modules/reopen': moduleOverrideDoc('Reopens', ['not_completed']),
  'POST /api/admin/modules/lock': moduleOverrideDoc('Locks', ['already_locked', 'only_open_module']),
  ...programDocs,
};
