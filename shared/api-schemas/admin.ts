/** Response shapes and error codes of the `admin` group (docs/product.md#7-the-calls-it-makes). */
import * as z from 'zod';
import { programDocs } from './admin-program';
import { auditEntry, day, DOWNLOAD, EMAIL_ERRORS, isoTime, MESSAGE_DETAIL, ok, page, PAGING_DETAILS, type RouteDoc } from './common';
import { emailAddress, personName } from './auth';
import { passkeyList } from './passkeys';

const status = z.enum(['active', 'locked', 'deleted', 'purging']);
const NO_USER = { 404: ['not_found'] } as const;
const text = z.optional(z.string());
const counts = z.record(z.string(), z.number());
const statusResult = z.looseObject({ ok: z.literal(true), status, is_locked: z.boolean() });
const userListItem = z.looseObject({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  status,
  is_locked: z.boolean(),
  created_at: isoTime,
  last_login_at: z.nullable(isoTime),
  role: z.enum(['learner', 'admin']),
  completion_pct: z.number(),
  enrollments: z.number(),
  verified: z.boolean(),
});
const userDetail = z.looseObject({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  status,
  is_locked: z.boolean(),
  role: z.enum(['learner', 'admin']),
  verified: z.nullable(z.boolean()),
  created_at: isoTime,
  last_login_at: z.nullable(isoTime),
  retention_days: z.number(),
  deleted_at: z.nullable(isoTime),
  hard_delete_ready: z.boolean(),
  enrollments: z.array(z.unknown()),
  passkey_count: z.number(),
  certificate: z.nullable(
    z.object({ verification_code: z.string(), issued_at: isoTime, completed_at: isoTime, revoked_at: z.nullable(isoTime) }),
  ),
});
const dailyCounts = z.array(z.object({ date: day, count: z.number() }));
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
export const auditLogPage = page(auditEntry).extend({ window_days: z.number(), date_from: day, date_to: day });
/** A CSV export's answer headers (functions/admin/exports.ts). */
const EXPORT_HEADERS = {
  'Content-Disposition': DOWNLOAD,
  'X-Export-Rows': 'the number of data rows in the file',
  'X-Export-Truncated': '`true` when the cap cut the export short (absent otherwise)',
};
const DATE_DETAILS = {
  field: z.string().describe('invalid_date: the query parameter at fault'),
  max_days: z.number().describe('date_range_too_long: the longest window'),
};
const moduleOverrideDoc = (what: string, refusals: string[]): RouteDoc => ({
  summary: `${what} a module for a learner (refusals: 409 with a human \`message\`).`,
  body: z.object({ user_id: z.string().min(1), module_id: z.string().min(1) }),
  responses: { 200: moduleOverride },
  details: MESSAGE_DETAIL,
  errors: { 400: ['missing_fields'], 404: ['not_found'], 409: refusals },
});

export const adminDocs: Record<string, RouteDoc> = {
  'GET /api/admin/summary': {
    summary: 'The dashboard metrics.',
    responses: {
      200: z.looseObject({
        as_of_utc: isoTime,
        dropoff_method: z.enum(['7d', 'overall']),
        cards: z.looseObject({
          total_users: z.number(),
          total_enrollments: z.number(),
          avg_completion: z.number(),
          active_7d: z.number(),
          active_30d: z.number(),
        }),
        completion: z.looseObject({ aggregate_pct: z.number() }),
        series: z.looseObject({ actives_7d_daily: dailyCounts, actives_30d_daily: dailyCounts }),
        funnel: z.array(
          z.object({
            module_id: z.string(),
            slug: z.string(),
            title: z.string(),
            week_number: z.number(),
            completed: z.number(),
            in_progress: z.number(),
          }),
        ),
      }),
    },
    errors: {},
  },
  'GET /api/admin/users': {
    summary: 'Accounts, searched and filtered, a page at a time (docs/api.md#4-paging).',
    responses: { 200: page(userListItem) },
    details: PAGING_DETAILS,
    errors: { 400: ['invalid_cursor', 'page_needs_cursor'] },
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
      409: ['email_taken', 'already_deleted'],
    },
  },
  'DELETE /api/admin/users/{id}': {
    summary: 'Hard delete of a soft-deleted account after retention (202 while a heavy purge continues).',
    query: z.object({ confirm_email: text.describe("the account's email, typed by the admin") }),
    responses: {
      200: z.looseObject({ deleted: z.literal(true), status: z.literal('done'), counts }),
      202: z.looseObject({ deleted: z.literal(false), status: z.literal('purging'), counts }),
    },
    details: { available_on: day.describe('retention_active: the first day the account can be erased') },
    errors: { 400: ['email_mismatch', 'cannot_target_self'], 404: ['not_found'], 409: ['not_deleted', 'retention_active', 'conflict'] },
  },
  'POST /api/admin/users/{id}/lock': {
    summary: 'Locks an account; its sessions end.',
    responses: { 200: statusResult },
    errors: { 400: ['cannot_target_self'], 404: ['not_found'], 409: ['already_locked', 'already_deleted'] },
  },
  'POST /api/admin/users/{id}/unlock': {
    summary: 'Unlocks an account.',
    responses: { 200: statusResult },
    errors: { 404: ['not_found'], 409: ['not_locked', 'already_deleted'] },
  },
  'POST /api/admin/users/{id}/actions/invalidate-sessions': {
    summary: 'Ends every session of an account.',
    responses: { 200: ok },
    errors: NO_USER,
  },
  'POST /api/admin/users/{id}/soft-delete': {
    summary: 'Soft-deletes an account (restorable during retention).',
    responses: { 200: z.looseObject({ status: z.literal('deleted'), deleted_at: isoTime, deleted_reason: z.nullable(z.string()) }) },
    errors: { 400: ['cannot_target_self'], 404: ['not_found'], 409: ['already_deleted'] },
  },
  'POST /api/admin/users/{id}/restore': {
    summary: 'Restores a soft-deleted account.',
    responses: { 200: z.looseObject({ status }) },
    errors: { 404: ['not_found'], 409: ['not_deleted'] },
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
    errors: { 404: ['not_found'], 409: ['already_deleted'], ...EMAIL_ERRORS },
  },
  'POST /api/admin/users/{id}/certificate/revoke': {
    summary: "Revokes the account's certificate.",
    responses: { 200: z.object({ ok: z.literal(true), verification_code: z.string(), revoked_at: isoTime }) },
    errors: { 404: ['not_found', 'no_certificate'], 409: ['already_revoked'] },
  },
  'GET /api/admin/users/{id}/passkeys': {
    summary: "The account's passkeys.",
    responses: { 200: passkeyList },
    errors: { 404: ['not_found'] },
  },
  'DELETE /api/admin/users/{id}/passkeys/{passkey_id}': {
    summary: 'Removes one passkey of the account (audited; the owner gets a notice).',
    responses: { 200: ok },
    errors: { 404: ['not_found', 'passkey_not_found'] },
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
