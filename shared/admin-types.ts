/**
 * Admin API response shapes shared by the admin Lambda and the admin console
 * (docs/product.md#3-entities-and-their-fields), derived from the response schemas the OpenAPI
 * document is built from (shared/api-schemas/admin.ts): one source per shape. Type-only imports,
 * so no bundle carries the schemas.
 */
import type * as z from 'zod/mini';
import type {
  adminCertificate,
  adminEnrollment,
  adminModule,
  adminSummary,
  dailyCount,
  funnelModule,
  restoreResult,
  role,
  softDeleteResult,
  userDetail,
  userListItem,
  userStatus,
} from './api-schemas/admin';
import type { auditEntry, page } from './api-schemas/common';

export type DailyCount = z.output<typeof dailyCount>;
/** `GET /api/admin/summary`. Rates are fractions (0–1); avg_completion and aggregate_pct are percents. */
export type AdminSummary = z.output<typeof adminSummary>;
/** One module of the admin summary's funnel: learners who completed it and who have it open. */
export type FunnelModule = z.output<typeof funnelModule>;
/** One audit entry as the admin API returns it (docs/product.md#3-entities-and-their-fields "Audit entry"). */
export type AuditEntry = z.output<typeof auditEntry>;
/** One page of an admin list (users, audit entries): cursor paging (docs/scale-reads.md). */
export type ListPage<T> = z.output<ReturnType<typeof page<z.ZodMiniType<T>>>>;
export type AdminUserStatus = z.output<typeof userStatus>;
export type AdminRole = z.output<typeof role>;
/** `GET /api/admin/users` rows (docs/product.md#3-entities-and-their-fields "User list item"). */
export type AdminUserListItem = z.output<typeof userListItem>;
/** One module of an enrollment as the drawer shows it ("Admin module"). */
export type AdminModule = z.output<typeof adminModule>;
/** An enrollment as the drawer shows it ("Enrollment"). */
export type AdminEnrollment = z.output<typeof adminEnrollment>;
/** `GET /api/admin/users/{id}` ("User detail"). */
export type AdminUserDetail = z.output<typeof userDetail>;
/** A certificate as the drawer shows it (issued, perhaps revoked). */
export type AdminCertificate = z.output<typeof adminCertificate>;
/** `POST /api/admin/users/{id}/soft-delete`. */
export type AdminSoftDeleteResult = z.output<typeof softDeleteResult>;
/** `POST /api/admin/users/{id}/restore`. */
export type AdminRestoreResult = z.output<typeof restoreResult>;
