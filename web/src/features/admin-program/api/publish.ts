import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PublishResult } from '@shared/program-authoring';
import { api } from '@/lib/api-client';

/** `POST /api/admin/program/publish`: the draft becomes the version learners see. */
export const publishDraft = (input: { revision: number; change_note: string }) =>
  api.post<PublishResult>('/api/admin/program/publish', input);

export function usePublish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishDraft,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'program'] }),
  });
}
