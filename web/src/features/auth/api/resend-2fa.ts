import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { LoginResponse } from './login';

export interface ResendTwoFactorInput {
  email: string;
  challenge_id: string;
}

/** A fresh sign-in challenge (and code) in place of the current one; the old challenge dies. */
export const resendTwoFactor = (input: ResendTwoFactorInput) => api.post<LoginResponse>('/api/auth/resend-2fa', input);

export const useResendTwoFactor = () => useMutation({ mutationFn: resendTwoFactor });
