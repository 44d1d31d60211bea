import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { SessionItem } from '../types';

export const getSessions = () => api.get<{ items: SessionItem[] }>('/api/auth/sessions');

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: ['account-security', 'sessions'],
    queryFn: getSessions,
    select: (data) => data.items,
  });

export const useSessions = () => useQuery(sessionsQueryOptions());
