import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidateUser } from './user-cache';

/** The four module overrides share one payload and answer shape (docs/product.md#7-the-calls-it-makes), so one file serves them. */
export type ModuleOverride = 'unlock' | 'force-complete' | 'reopen' | 'lock';

export interface ModuleOverrideInput {
  action: ModuleOverride;
  moduleId: string;
}

export const overrideModule = (userId: string, { action, moduleId }: ModuleOverrideInput) =>
  api.post<{ ok?: boolean; message?: string }>(`/api/admin/modules/${action}`, { user_id: userId, module_id: moduleId });

export function useOverrideModule(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ModuleOverrideInput) => overrideModule(userId, input),
    onSettled: () => invalidateUser(queryClient, userId),
  });
}
