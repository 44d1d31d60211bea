import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userPath } from './get-user';

/** A hard delete that goes on in the background (202 from DELETE …/users/{id}). */
export interface PurgeStatus {
  status: 'purging' | 'done';
  step: string;
  counts: Record<string, number>;
  started_at: string;
  finished_at: string | null;
}

export const PURGE_POLL_MS = 2_000;

export const getPurgeStatus = (id: string) => api.get<PurgeStatus>(`${userPath(id)}/hard-delete/status`);

export const purgeStatusQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'purge', id],
    queryFn: () => getPurgeStatus(id),
  });

/** Polled until the purge is done. */
export const usePurgeStatus = (id: string, enabled: boolean) =>
  useQuery({
    ...purgeStatusQueryOptions(id),
    enabled,
    refetchInterval: (query) => (query.state.data?.status === 'done' ? false : PURGE_POLL_MS),
  });
