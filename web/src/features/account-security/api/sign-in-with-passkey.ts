import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { meQueryOptions, type SessionUser } from '@/lib/auth';
import { forgetServerAnswers } from '@/lib/session-answers';

export const getAuthenticationOptions = () =>
  api.post<{ challenge_id: string; options: PublicKeyCredentialRequestOptionsJSON }>('/api/auth/passkeys/authentication/options');

export const verifyAuthentication = (input: { challenge_id: string; response: unknown }) =>
  api.post<{ ok: boolean; user?: SessionUser }>('/api/auth/passkeys/authentication/verify', input);

/**
 * Signs in with a discoverable passkey (no email typed): it replaces the password and the
 * emailed code. The fresh profile is read back, as after the two-step sign-in.
 */
export function useSignInWithPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { challenge_id, options } = await getAuthenticationOptions();
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const response = await startAuthentication({ optionsJSON: options });
      const result = await verifyAuthentication({ challenge_id, response });
      // Answers cached while signed out (a module's 401) would send the person back to /login.
      forgetServerAnswers(queryClient);
      await queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
      const user = await queryClient.fetchQuery(meQueryOptions()).catch(() => null);
      return { ...result, user: user ?? result.user ?? null };
    },
  });
}
