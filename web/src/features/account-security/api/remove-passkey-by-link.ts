import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `POST /api/auth/passkeys/removal` `{ token }`: the passkey_added notice's "this wasn't me" link. */
export const removePasskeyByLink = (token: string) => api.post<{ ok: boolean }>('/api/auth/passkeys/removal', { token });

export function useRemovePasskeyByLink() {
  return useMutation({ mutationFn: removePasskeyByLink });
}
