import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardState } from '@shared/program-types';
import { api } from '@/lib/api-client';

export const getDashboardState = () => api.get<DashboardState>('/api/dashboard/state');

export const dashboardStateQueryOptions = () =>
  queryOptions({
    queryKey: ['program', 'dashboard-state'],
    queryFn: getDashboardState,
  });

export const useDashboardState = () => useQuery(dashboardStateQueryOptions());
