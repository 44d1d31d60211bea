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
