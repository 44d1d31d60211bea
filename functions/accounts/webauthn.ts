import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse as verifyWithLibrary,
  type VerifiedRegistrationResponse,
  type VerifyRegistrationResponseOpts,
} from '@simplewebauthn/server';
import { decodeAttestationObject, isoBase64URL } from '@simplewebauthn/server/helpers';

/**
 * The WebAuthn ceremonies of functions/accounts/passkey-*.ts, all by @simplewebauthn/server, with
 * one rule of ours: registration asks for `attestation: 'none'`, so the only attestations accepted
 * are "none" and packed self-attestation (a signature by the new credential's own key, which
 * Chromium keeps even when asked for none). An attestation that carries certificates (packed
 * with x5c, fido-u2f, tpm, android-key, android-safetynet, apple) is refused here, before the
 * library would parse them: there is no attestation policy or metadata service to trust them by.
 */
export { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse };

export const ATTESTATION_TYPE = 'none';

/** Throws unless the attestation object is "none" or packed self-attestation (no certificate). */
export function assertCertificateFreeAttestation(attestationObject: string): void {
  const decoded = decodeAttestationObject(isoBase64URL.toBuffer(attestationObject));
  const fmt = decoded.get('fmt');
  const statement = decoded.get('attStmt');
  if (fmt === 'none') return;
  if (fmt === 'packed' && statement instanceof Map && !statement.has('x5c')) return;
  throw new Error(
    `Attestation format "${String(fmt)}" with certificates is not accepted (attestation "${ATTESTATION_TYPE}" was requested)`,
  );
}

export async function verifyRegistrationResponse(options: VerifyRegistrationResponseOpts): Promise<VerifiedRegistrationResponse> {
  assertCertificateFreeAttestation(options.response.response.attestationObject);
  return verifyWithLibrary(options);
}
