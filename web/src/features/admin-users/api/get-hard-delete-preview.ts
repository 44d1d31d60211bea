import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userPath, userQueryOptions } from './get-user';

export interface HardDeletePreview {
  counts: Record<string, number>;
  /** kinds whose count stopped at the server's cap: a lower bound, shown as "≥ N" */
  at_least?: string[];
}

export const getHardDeletePreview = (id: string) => api.get<HardDeletePreview>(`${userPath(id)}/hard-delete/preview`);

export const hardDeletePreviewQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...userQueryOptions(id).queryKey, 'hard-delete-preview'],
    queryFn: () => getHardDeletePreview(id),
  });

/** Loaded only while the hard-delete panel is open. */
export const useHardDeletePreview = (id: string, enabled: boolean) => useQuery({ ...hardDeletePreviewQueryOptions(id), enabled });
