import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_REFRESH_MS } from '../../../../../shared/constants';
import { api } from '../../../lib/api-client';

export interface DailyCount {
  date: string;
  count: number;
}

/** SPEC §3 "Admin summary". Rates are fractions (0–1); avg_completion is already a percent. */
export interface AdminSummary {
  as_of_utc: string;
  dropoff_method: string;
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
  drill: { active_7d?: string; active_30d?: string; unverified?: string; week1_dropoff?: string };
  series: { actives_7d_daily: DailyCount[]; actives_30d_daily: DailyCount[] };
}

export const getSummary = () => api.get<AdminSummary>('/api/admin/summary');

export const summaryQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'summary'],
    queryFn: getSummary,
    // SPEC §4: the dashboard reloads every 60 seconds while it is open.
    refetchInterval: ADMIN_REFRESH_MS,
  });

export const useSummary = () => useQuery(summaryQueryOptions());
