import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { PasskeyItem } from '../types';
import { proofOf, type Confirmation } from './confirm-identity';
import { passkeysQueryOptions } from './get-passkeys';

export interface AddPasskeyInput {
  /** Empty: the server names it after the passkey provider or this browser. */
  name?: string;
  confirmation: Confirmation;
}

export const getRegistrationOptions = (confirmation: Confirmation) =>
  api.post<{ challenge_id: string; options: PublicKeyCredentialCreationOptionsJSON }>(
    '/api/auth/passkeys/registration/options',
    proofOf(confirmation),
  );

export const verifyRegistration = (input: { challenge_id: string; name?: string; response: unknown }) =>
  api.post<PasskeyItem>('/api/auth/passkeys/registration/verify', input);

/**
 * Adds a passkey: the server's options (after "Confirm it's you"), the browser's passkey dialog,
 * then the server's check. The WebAuthn helper loads only here, so other pages never download it.
 */
export async function addPasskey({ name, confirmation }: AddPasskeyInput): Promise<PasskeyItem> {
  const { challenge_id, options } = await getRegistrationOptions(confirmation);
  const { startRegistration } = await import('@simplewebauthn/browser');
  const response = await startRegistration({ optionsJSON: options });
  return verifyRegistration({ challenge_id, ...(name ? { name } : {}), response });
}

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryOptions().queryKey }),
  });
}
