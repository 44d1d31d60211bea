import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { PasskeyItem } from '../types';

export const getPasskeys = () => api.get<{ items: PasskeyItem[] }>('/api/auth/passkeys');

export const passkeysQueryOptions = () =>
  queryOptions({
    queryKey: ['account-security', 'passkeys'],
    queryFn: getPasskeys,
    select: (data) => data.items,
  });

export const usePasskeys = () => useQuery(passkeysQueryOptions());
