import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, queryString } from '@/lib/api-client';

export const validateResetToken = (token: string) =>
  api.get<Record<string, unknown>>(`/api/auth/password-reset/validate${queryString({ token })}`);

export const validateResetTokenQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'reset-token', token],
    queryFn: () => validateResetToken(token),
    // A token's validity changes (used, expired): ask again every time the page opens.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

export const useValidateResetToken = (token: string) => useQuery({ ...validateResetTokenQueryOptions(token), enabled: token.length > 0 });
