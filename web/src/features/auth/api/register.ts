import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { browserTimeZone } from '@/utils/time-zones';

export interface RegisterInput {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  passwordConfirm: string;
}

/** Sends the browser's time zone too: reminders go out in the learner's morning (editable in Settings). */
export const register = (input: RegisterInput) => {
  const timeZone = browserTimeZone();
  return api.post<Record<string, unknown>>('/api/auth/register', timeZone ? { ...input, time_zone: timeZone } : input);
};

export const useRegister = () => useMutation({ mutationFn: register });
