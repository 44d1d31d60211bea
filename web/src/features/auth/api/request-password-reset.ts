import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Always answers 200 whether or not the account exists (no user enumeration). */
export const requestPasswordReset = (email: string) => api.post<Record<string, unknown>>('/api/auth/password-reset/request', { email });

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
