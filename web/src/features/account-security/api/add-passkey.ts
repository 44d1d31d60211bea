import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { PasskeyItem } from '../types';
import { passkeysQueryOptions } from './get-passkeys';

export interface AddPasskeyInput {
  name: string;
  /** Needed when the last sign-in is more than 5 minutes old. */
  currentPassword?: string;
}

export const getRegistrationOptions = (currentPassword?: string) =>
  api.post<{ challenge_id: string; options: PublicKeyCredentialCreationOptionsJSON }>(
    '/api/auth/passkeys/registration/options',
    currentPassword ? { current_password: currentPassword } : {},
  );

export const verifyRegistration = (input: { challenge_id: string; name: string; response: unknown }) =>
  api.post<PasskeyItem>('/api/auth/passkeys/registration/verify', input);

/**
 * Adds a passkey: the server's options, the browser's passkey dialog, then the server's check.
 * The WebAuthn helper loads only here, so other pages never download it.
 */
export async function addPasskey({ name, currentPassword }: AddPasskeyInput): Promise<PasskeyItem> {
  const { challenge_id, options } = await getRegistrationOptions(currentPassword);
  const { startRegistration } = await import('@simplewebauthn/browser');
  const response = await startRegistration({ optionsJSON: options });
  return verifyRegistration({ challenge_id, name, response });
}

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryOptions().queryKey }),
  });
}
