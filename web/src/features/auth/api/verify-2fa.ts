import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { meQueryOptions, type SessionUser } from '@/lib/auth';
import { forgetServerAnswers } from '@/lib/session-answers';

export interface VerifyTwoFactorInput {
  email: string;
  code: string;
  challenge_id: string;
}

export interface VerifyTwoFactorResponse {
  ok: boolean;
  user?: SessionUser;
}

export const verifyTwoFactor = (input: VerifyTwoFactorInput) => api.post<VerifyTwoFactorResponse>('/api/auth/verify-2fa', input);

/**
 * Step 2 of sign-in. On success the session cookie is new, so the cached profile is refreshed and
 * the fresh one is returned with the response: the caller routes on the profile the server now
 * holds, not on what step 2 echoed.
 */
export const useVerifyTwoFactor = () => useSessionStart(verifyTwoFactor);

/** A call whose success sets a new session cookie (sign-in step 2, an account restore). */
export const useSessionStart = <Input>(request: (input: Input) => Promise<VerifyTwoFactorResponse>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) => {
      const response = await request(input);
      // Answers cached while signed out (a module's 401) would send the person back to /login.
      forgetServerAnswers(queryClient);
      await queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
      // A failed re-read must not undo a sign-in that worked: fall back to the echoed profile.
      const user = await queryClient.fetchQuery(meQueryOptions()).catch(() => null);
      return { ...response, user: user ?? response.user ?? null };
    },
  });
};
