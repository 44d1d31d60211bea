import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface VerifyEmailInput {
  email: string;
  code: string;
}

export const verifyEmail = (input: VerifyEmailInput) => api.post<Record<string, unknown>>('/api/auth/verify-email', input);

export const useVerifyEmail = () => useMutation({ mutationFn: verifyEmail });
