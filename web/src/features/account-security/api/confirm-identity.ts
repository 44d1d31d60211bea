import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api } from '@/lib/api-client';

/** A passkey's answer to a "Confirm it's you" challenge. */
export interface PasskeyAssertion {
  challenge_id: string;
  response: unknown;
}

/** How the person confirmed it's them: the current password, or one of their passkeys. */
export type Confirmation = { currentPassword: string } | { passkey: PasskeyAssertion };

/** The request body the server reads a confirmation from (`{ current_password }` or `{ passkey }`). */
export const proofOf = (confirmation: Confirmation) =>
  'currentPassword' in confirmation ? { current_password: confirmation.currentPassword } : { passkey: confirmation.passkey };

/** "Confirm it's you" with a passkey the account already has: the browser's passkey dialog answers the server's challenge. */
export async function confirmWithPasskey(): Promise<PasskeyAssertion> {
  const { challenge_id, options } = await api.post<{ challenge_id: string; options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/auth/passkeys/confirmation/options',
    {},
  );
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return { challenge_id, response: await startAuthentication({ optionsJSON: options }) };
}
