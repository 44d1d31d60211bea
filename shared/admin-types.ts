import type { ModuleState } from './program-types';

/** Admin API response shapes shared by the admin Lambda and the admin console (docs/product.md#3-entities-and-their-fields). */
export interface DailyCount {
  date: string;
  count: number;
}

/** `GET /api/admin/summary`. Rates are fractions (0–1); avg_completion and aggregate_pct are percents. */
export interface AdminSummary {
  as_of_utc: string;
  /** '7d' = the 7-day completion window; anything else reads as the overall window. */
  dropoff_method: '7d' | 'overall';
  cards: {
    total_users: number;
    total_enrollments: number;
    avg_completion: number;
    active_7d: number;
    active_30d: number;
    verification_rate: number;
    week1_dropoff: number;
  };
  completion: { aggregate_pct: number };
  drill: { active_7d: string; active_30d: string; unverified: string; week1_dropoff: string };
  series: { actives_7d_daily: DailyCount[]; actives_30d_daily: DailyCount[] };
  /** Where learners stall: every module in program order, counted by the writes (docs/data-model.md "Module funnel"). */
  funnel: FunnelModule[];
}

/** One module of the admin summary's funnel: learners who completed it and who have it open. */
export interface FunnelModule {
  module_id: string;
  slug: string;
  title: string;
  week_number: number;
  completed: number;
  in_progress: number;
}

/** One audit entry as the admin API returns it (docs/product.md#3-entities-and-their-fields "Audit entry"). */
export interface AuditEntry {
  id: string;
  created_at?: string | null;
  action?: string | null;
  old_values?: unknown;
  new_values?: unknown;
  actor_email?: string | null;
  actor_user_id?: string | null;
  entity_type?: string | null;
  entity_id?: string | null;
  ip?: string | null;
  user_agent?: string | null;
}

/** One page of an admin list (users, audit entries): cursor paging (docs/scale-reads.md). */
export interface ListPage<T> {
  items: T[];
  total: number;
  /** True when `total` is a bound ("10,000+"), not an exact count. */
  total_is_estimate: boolean;
  has_next: boolean;
  /** Opaque; pass as `cursor` for the next page. Null on the last page. */
  next_cursor: string | null;
  page: number;
  page_size: number;
  /** The read budget ended before the page was full (a rare filter): Next continues. */
  truncated?: boolean;
}

export type AdminUserStatus = 'active' | 'locked' | 'deleted' | 'purging';
export type AdminRole = 'admin' | 'learner';

/** `GET /api/admin/users` rows (docs/product.md#3-entities-and-their-fields "User list item"). */
export interface AdminUserListItem {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  status: AdminUserStatus;
  is_locked: boolean;
  created_at: string;
  last_login_at: string | null;
  role: AdminRole;
  /** false: the account has not verified its email (a chip beside the status) */
  verified: boolean;
  completion_pct: number;
  enrollments: number;
}

/** One module of an enrollment as the drawer shows it ("Admin module"). */
export interface AdminModule {
  module_id: string;
  title: string;
  week_no: number;
  module_number: number;
  status: ModuleState;
  started_at: string | null;
  completed_at: string | null;
}

/** An enrollment as the drawer shows it ("Enrollment"). */
export interface AdminEnrollment {
  id: string;
  program_id: string;
  program_title: string;
  status: string;
  percent_complete: number;
  enrolled_at: string;
  modules: AdminModule[];
}

/** `GET /api/admin/users/{id}` ("User detail"). */
export interface AdminUserDetail {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  status: AdminUserStatus;
  is_locked: boolean;
  role: AdminRole;
  verified: boolean | null;
  created_at: string;
  last_login_at: string | null;
  recent_activity: { last_login_at: string | null; last_progress_at: string | null; last_enrollment_at: string | null };
  retention_days: number;
  deleted_at: string | null;
  deleted_reason: string | null;
  hard_delete_ready: boolean;
  hard_delete_available_at: string | null;
  enrollments: AdminEnrollment[];
  /** How many passkeys the account has (docs/account-security.md). */
  passkey_count: number;
  /** SES reported a hard bounce or a spam complaint for the address. */
  email_suppressed: 'bounce' | 'complaint' | null;
  /** The learner's certificate of completion (docs/product.md#certificates), null when none was issued. */
  certificate: AdminCertificate | null;
}

/** A certificate as the drawer shows it (issued, perhaps revoked). */
export interface AdminCertificate {
  verification_code: string;
  issued_at: string;
  completed_at: string;
  revoked_at: string | null;
}

/** `POST /api/admin/users/{id}/soft-delete`. */
export interface AdminSoftDeleteResult {
  status: 'deleted';
  deleted_at: string;
  deleted_reason: string | null;
}

/** `POST /api/admin/users/{id}/restore`. */
export interface AdminRestoreResult {
  status: AdminUserStatus;
}
