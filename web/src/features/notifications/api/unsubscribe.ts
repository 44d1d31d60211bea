import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences, ReminderFrequency } from '@shared/program-types';
import { api } from '@/lib/api-client';

/** What the unsubscribe page shows: the address reminders go to, their frequency and whether they are paused. */
export interface LinkedSubscription extends NotificationPreferences {
  email: string;
}

const tokenQuery = (token: string) => `?token=${encodeURIComponent(token)}`;

/** `GET /api/notifications/subscription?token=…` (docs/product.md#unsubscribe): reads only. */
export const subscriptionQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['notifications', 'subscription', token],
    queryFn: () => api.get<LinkedSubscription>(`/api/notifications/subscription${tokenQuery(token)}`),
    retry: false,
  });

export const useLinkedSubscription = (token: string | null) =>
  useQuery({ ...subscriptionQueryOptions(token ?? ''), enabled: Boolean(token) });

/**
 * Turning reminders off sends the one-click body of `POST /api/notifications/unsubscribe` as
 * JSON (mail providers send the same as a form); "weekly instead" and turning them back on go
 * to `POST /api/notifications/subscription`. Both by the link's token.
 */
export const setLinkedFrequency = (token: string, frequency: ReminderFrequency) =>
  frequency === 'off'
    ? api.post<NotificationPreferences>(`/api/notifications/unsubscribe${tokenQuery(token)}`, { 'List-Unsubscribe': 'One-Click' })
    : api.post<NotificationPreferences>(`/api/notifications/subscription${tokenQuery(token)}`, { reminder_frequency: frequency });

export function useSetLinkedFrequency(token: string) {
  const queryClient = useQueryClient();
  const { queryKey } = subscriptionQueryOptions(token);
  return useMutation({
    mutationFn: (frequency: ReminderFrequency) => setLinkedFrequency(token, frequency),
    onSuccess: (saved) =>
      queryClient.setQueryData(queryKey, (current) =>
        // daily or weekly from the link also resumes paused reminders
        current
          ? {
              ...current,
              reminder_frequency: saved.reminder_frequency,
              reminders_paused: current.reminders_paused && saved.reminder_frequency === 'off',
            }
          : current,
      ),
  });
}
