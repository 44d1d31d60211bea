import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProgramVersionView } from '@shared/program-authoring';
import { api } from '@/lib/api-client';

/** `GET /api/admin/program/versions/{version}`: the version with what it changed from the one before. */
export const versionQueryOptions = (version: number) =>
  queryOptions({
    queryKey: ['admin', 'program', 'version', version],
    queryFn: () => api.get<ProgramVersionView>(`/api/admin/program/versions/${version}`),
    // a published version never changes
    staleTime: Infinity,
  });

export const useVersion = (version: number | null) => useQuery({ ...versionQueryOptions(version ?? 0), enabled: version !== null });
