import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_REFRESH_MS } from '@shared/constants';
import { api } from '@/lib/api-client';
import type { AdminSummary, DailyCount, FunnelModule } from '@shared/admin-types';

export type { AdminSummary, DailyCount, FunnelModule };

export const getSummary = () => api.get<AdminSummary>('/api/admin/summary');

export const summaryQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'summary'],
    queryFn: getSummary,
    // docs/product.md#4-states-and-transitions: the dashboard reloads every 60 seconds while it is open.
    refetchInterval: ADMIN_REFRESH_MS,
  });

export const useSummary = () => useQuery(summaryQueryOptions());
