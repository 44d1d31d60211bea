import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProgramDraft } from '@shared/program-authoring';
import { draftQueryOptions } from './get-draft';
import { versionsQueryOptions } from './get-versions';

/** A write that answers the new draft: the cached draft is replaced by it, the history refreshed. */
export function useDraftWrite<Input>(call: (input: Input) => Promise<ProgramDraft>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (draft) => {
      queryClient.setQueryData(draftQueryOptions().queryKey, draft);
      void queryClient.invalidateQueries({ queryKey: versionsQueryOptions().queryKey });
    },
  });
}
