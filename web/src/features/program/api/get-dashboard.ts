import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardSummary } from '@shared/program-types';
import { api } from '@/lib/api-client';

export const getDashboard = () => api.get<DashboardSummary>('/api/dashboard');

export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: ['program', 'dashboard'],
    queryFn: getDashboard,
  });

export const useDashboard = () => useQuery(dashboardQueryOptions());
