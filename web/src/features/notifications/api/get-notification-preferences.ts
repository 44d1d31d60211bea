import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationPreferences } from '@shared/program-types';
import { api } from '@/lib/api-client';

export const getNotificationPreferences = () => api.get<NotificationPreferences>('/api/settings/notifications');

export const notificationPreferencesQueryOptions = () =>
  queryOptions({
    queryKey: ['notifications', 'preferences'],
    queryFn: getNotificationPreferences,
  });

export const useNotificationPreferences = () => useQuery(notificationPreferencesQueryOptions());
