import type { AuditEntry } from '../../../../shared/admin-types';

/** Shapes of the admin user endpoints (docs/product.md#3-entities-and-their-fields "User list item", "User detail", "Admin module"). */
export interface AdminUserListItem {
  id: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  status?: string | null;
  is_locked?: boolean;
  created_at?: string | null;
  last_login_at?: string | null;
  role?: string | null;
  /** false: the account has not verified its email (a chip beside the status) */
  verified?: boolean | null;
  completion_pct?: number | null;
  enrollments?: number | null;
}

export interface Paged<T> {
  items: T[];
  total: number;
  has_next: boolean;
  /** opaque; send as `cursor` for the next page (null on the last page) */
  next_cursor?: string | null;
  /** `total` is a bound, not an exact count */
  total_is_estimate?: boolean;
  /** the page stopped at the server's read budget before it was full: Next continues */
  truncated?: boolean;
}

/** The server may spell a module's week and order in several ways; `normalizeModule` reads them all. */
export interface AdminModuleRaw {
  module_id?: string;
  id?: string;
  title?: string | null;
  week_no?: number;
  week?: number;
  week_number?: number;
  weekNumber?: number;
  module_number?: number;
  order_in_week?: number;
  position?: number;
  moduleNumber?: number;
  status?: string | null;
  started_at?: string | null;
  completed_at?: string | null;
}

export interface AdminEnrollment {
  id: string;
  program_id?: string | null;
  program_title?: string | null;
  status?: string | null;
  modules?: AdminModuleRaw[];
}

export interface AdminUserDetail {
  id: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  status?: string | null;
  is_locked?: boolean;
  role?: string | null;
  verified?: boolean | null;
  created_at?: string | null;
  last_login_at?: string | null;
  /** SES reported a hard bounce ('bounce') or a spam complaint ('complaint') for the address. */
  email_suppressed?: 'bounce' | 'complaint' | null;
  recent_activity?: {
    last_login_at?: string | null;
    last_progress_at?: string | null;
    last_enrollment_at?: string | null;
  } | null;
  retention_days?: number | null;
  deleted_at?: string | null;
  deleted_reason?: string | null;
  hard_delete_ready?: boolean;
  hard_delete_available_at?: string | null;
  enrollments?: AdminEnrollment[];
  /** How many passkeys the account has (docs/account-security.md). */
  passkey_count?: number | null;
  /** The learner's certificate of completion; null when none was issued. */
  certificate?: AdminCertificate | null;
}

export interface AdminCertificate {
  verification_code: string;
  issued_at: string;
  completed_at?: string | null;
  revoked_at?: string | null;
}

export type { AuditEntry };
