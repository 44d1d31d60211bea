import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface ChangePasswordInput {
  current_password: string;
  new_password: string;
  confirm_new_password: string;
}

export const changePassword = (input: ChangePasswordInput) => api.post<Record<string, unknown>>('/api/settings/password', input);

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
