import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface LoginInput {
  email: string;
  password: string;
}

/** Step 1 of sign-in: a right password only starts the emailed-code step (docs/product.md#4-states-and-transitions). */
export interface LoginResponse {
  two_factor_pending?: boolean;
  challenge_id?: string;
}

export const login = (input: LoginInput) => api.post<LoginResponse>('/api/auth/login', input);

export const useLogin = () => useMutation({ mutationFn: login });
