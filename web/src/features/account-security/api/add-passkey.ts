import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { PasskeyItem } from '../types';
import { passkeysQueryOptions } from './get-passkeys';

/** A passkey's answer to a "Confirm it's you" challenge. */
export interface PasskeyAssertion {
  challenge_id: string;
  response: unknown;
}

/** How the person confirmed it's them: the current password, or one of their passkeys. */
export type Confirmation = { currentPassword: string } | { passkey: PasskeyAssertion };

export interface AddPasskeyInput {
  /** Empty: the server names it after the passkey provider or this browser. */
  name?: string;
  confirmation: Confirmation;
}

export const getRegistrationOptions = (confirmation: Confirmation) =>
  api.post<{ challenge_id: string; options: PublicKeyCredentialCreationOptionsJSON }>(
    '/api/auth/passkeys/registration/options',
    'currentPassword' in confirmation ? { current_password: confirmation.currentPassword } : { passkey: confirmation.passkey },
  );

export const verifyRegistration = (input: { challenge_id: string; name?: string; response: unknown }) =>
  api.post<PasskeyItem>('/api/auth/passkeys/registration/verify', input);

/** "Confirm it's you" with a passkey the account already has: the browser's passkey dialog answers the server's challenge. */
export async function confirmWithPasskey(): Promise<PasskeyAssertion> {
  const { challenge_id, options } = await api.post<{ challenge_id: string; options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/auth/passkeys/confirmation/options',
    {},
  );
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return { challenge_id, response: await startAuthentication({ optionsJSON: options }) };
}

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
