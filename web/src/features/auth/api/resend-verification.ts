import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Always answers 202 `{ ok: true }`, whether or not the address has an unverified account. */
export const resendVerification = (input: { email: string }) => api.post<{ ok: boolean }>('/api/auth/resend-verification', input);

export const useResendVerification = () => useMutation({ mutationFn: resendVerification });
