import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface ConfirmPasswordResetInput {
  token: string;
  password: string;
  password2: string;
}

export const confirmPasswordReset = (input: ConfirmPasswordResetInput) =>
  api.post<Record<string, unknown>>('/api/auth/password-reset/confirm', input);

export const useConfirmPasswordReset = () => useMutation({ mutationFn: confirmPasswordReset });
