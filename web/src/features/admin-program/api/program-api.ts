import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProgramContentJson, ProgramDraft, ProgramVersionList, PublishResult } from '../../../../../shared/program-authoring';
import { api } from '../../../lib/api-client';

/** The program authoring calls (docs/product.md#program-authoring). */
export const draftQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'program', 'draft'], queryFn: () => api.get<ProgramDraft>('/api/admin/program/draft') });
export const versionsQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'program', 'versions'], queryFn: () => api.get<ProgramVersionList>('/api/admin/program/versions') });

export const useDraft = () => useQuery(draftQueryOptions());
export const useVersions = () => useQuery(versionsQueryOptions());

export const exportVersionPath = (version: number) => `/api/admin/program/versions/${version}/export`;

/** A write that answers the new draft: the cached draft is replaced by it, the history refreshed. */
function useDraftWrite<Input>(call: (input: Input) => Promise<ProgramDraft>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (draft) => {
      queryClient.setQueryData(draftQueryOptions().queryKey, draft);
      void queryClient.invalidateQueries({ queryKey: versionsQueryOptions().queryKey });
    },
  });
}

export const useSaveDraft = () =>
  useDraftWrite((input: { revision: number; content: ProgramContentJson }) => api.put<ProgramDraft>('/api/admin/program/draft', input));
export const useImportDraft = () =>
  useDraftWrite((input: { revision: number; content: unknown }) => api.post<ProgramDraft>('/api/admin/program/import', input));
export const useRestoreVersion = () =>
  useDraftWrite(({ version, revision }: { version: number; revision: number }) =>
    api.post<ProgramDraft>(`/api/admin/program/versions/${version}/restore`, { revision }),
  );

export function usePublish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { revision: number; change_note: string }) => api.post<PublishResult>('/api/admin/program/publish', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'program'] }),
  });
}
