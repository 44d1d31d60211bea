import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { ProgramVersionList } from '@shared/program-authoring';
import { api } from '@/lib/api-client';

/** `GET /api/admin/program/versions`, newest first, one page at a time (`before` = the next page). */
export const versionsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['admin', 'program', 'versions'],
    initialPageParam: null as number | null,
    queryFn: ({ pageParam }) =>
      api.get<ProgramVersionList>(`/api/admin/program/versions${pageParam === null ? '' : `?before=${pageParam}`}`),
    getNextPageParam: (page) => page.next_before,
  });

export const useVersions = () => useInfiniteQuery(versionsQueryOptions());
