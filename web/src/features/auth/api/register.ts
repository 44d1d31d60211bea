import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface RegisterInput {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  passwordConfirm: string;
}

export const register = (input: RegisterInput) => api.post<Record<string, unknown>>('/api/auth/register', input);

export const useRegister = () => useMutation({ mutationFn: register });
