import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ModulePage } from '@shared/program-types';
import { api } from '@/lib/api-client';

export const getModule = (slug: string) => api.get<ModulePage>(`/api/modules/${encodeURIComponent(slug)}`);

export const moduleQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: ['program', 'module', slug],
    queryFn: () => getModule(slug),
  });

export const useModule = (slug: string) => useQuery(moduleQueryOptions(slug));
