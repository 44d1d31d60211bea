import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useSessionStart, type VerifyTwoFactorResponse } from './verify-2fa';

/** Step 1 of restoring an account its owner deleted: the password again; a code is emailed. */
export const startRestore = (input: { email: string; password: string }) =>
  api.post<{ restore_pending: boolean; challenge_id?: string }>('/api/auth/restore', input);

export const useStartRestore = () => useMutation({ mutationFn: startRestore });

/** Step 2: the emailed code; the account is active again and signed in. */
export const verifyRestore = (input: { email: string; code: string; challenge_id: string }) =>
  api.post<VerifyTwoFactorResponse>('/api/auth/restore/verify', input);

export const useVerifyRestore = () => useSessionStart(verifyRestore);
