import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences } from '@shared/program-types';
import { api } from '@/lib/api-client';
import { notificationPreferencesQueryOptions } from './get-notification-preferences';

/** A change of the frequency, the time zone or both (the server keeps the other as it is), or `resume` of paused reminders. */
export type NotificationPreferencesChange = Partial<Pick<NotificationPreferences, 'reminder_frequency' | 'time_zone'>> & { resume?: true };

export const updateNotificationPreferences = (change: NotificationPreferencesChange) =>
  api.post<unknown>('/api/settings/notifications', change);

/** What the cache shows right away for a change. */
const applied = (
  previous: NotificationPreferences,
  { resume, ...preferences }: NotificationPreferencesChange,
): NotificationPreferences => ({
  ...previous,
  ...preferences,
  ...(resume ? { reminders_paused: false } : {}),
});

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
      if (previous) queryClient.setQueryData(queryKey, applied(previous, next));
      return { previous };
    },
    onError: (_error, _next, context) => {
      if (context?.previous) queryClient.setQueryData(queryKey, context.previous);
    },
    // Not returned: the learner's feedback should not wait for the confirming refetch.
    onSettled: () => void queryClient.invalidateQueries({ queryKey }),
  });
}
