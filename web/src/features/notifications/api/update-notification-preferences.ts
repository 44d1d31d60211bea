import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences } from '@shared/program-types';
import { api } from '@/lib/api-client';
import { notificationPreferencesQueryOptions } from './get-notification-preferences';

/** One preference or both: the server keeps the other as it is. */
export const updateNotificationPreferences = (preferences: Partial<NotificationPreferences>) =>
  api.post<unknown>('/api/settings/notifications', preferences);

/**
 * The choice applies at once (docs/product.md#4-states-and-transitions): the cache takes the new value before the call and gets
 * the previous one back if the call fails.
 */
export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  const { queryKey } = notificationPreferencesQueryOptions();
  return useMutation({
    mutationFn: updateNotificationPreferences,
    onMutate: async (next) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData(queryKey);
      if (previous) queryClient.setQueryData(queryKey, { ...previous, ...next });
      return { previous };
    },
    onError: (_error, _next, context) => {
      if (context?.previous) queryClient.setQueryData(queryKey, context.previous);
    },
    // Not returned: the learner's feedback should not wait for the confirming refetch.
    onSettled: () => void queryClient.invalidateQueries({ queryKey }),
  });
}
