import { expect, it } from 'vitest';
import { SoftAuthenticator, type SoftAlgorithm, type SoftAttestation } from './soft-authenticator';

/** The WebAuthn functions functions/accounts/webauthn.ts exports. */
export type WebauthnModule = typeof import('../../functions/accounts/webauthn');

const RP_ID = 'localhost';
const ORIGIN = 'http://localhost:3000';

/**
 * Adds a passkey and signs in with it twice, with the options functions/accounts/passkey-sign-in.ts
 * uses, through the given module: what the passkeys Lambda does, without the database.
 * Returns what the library verified, or throws where it refuses.
 */
export async function registerAndSignIn(
  webauthn: WebauthnModule,
  authenticator: { algorithm?: SoftAlgorithm; attestation?: SoftAttestation },
) {
  const soft = new SoftAuthenticator(authenticator);
  const creation = await webauthn.generateRegistrationOptions({
    rpName: 'Test',
    rpID: RP_ID,
    userName: 'ada@example.com',
    userID: new TextEncoder().encode('user-1'),
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
  const registration = await webauthn.verifyRegistrationResponse({
    response: soft.register(creation, ORIGIN) as never,
    expectedChallenge: creation.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    requireUserVerification: true,
  });
  if (!registration.verified) return { registration, signIns: [] };
  const { credential } = registration.registrationInfo;
  const signIns = [];
  let counter = credential.counter;
  for (let i = 0; i < 2; i += 1) {
    const request = await webauthn.generateAuthenticationOptions({ rpID: RP_ID, userVerification: 'required' });
    const result = await webauthn.verifyAuthenticationResponse({
      response: soft.authenticate(request, ORIGIN) as never,
      expectedChallenge: request.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential: { id: credential.id, publicKey: credential.publicKey, counter },
      requireUserVerification: true,
    });
    signIns.push(result);
    counter = result.authenticationInfo.newCounter;
  }
  // a forged assertion (signature of another key) is refused
  const other = new SoftAuthenticator(authenticator);
  other.counter = counter + 5; // a counter that passes, so that the signature is what is checked
  const request = await webauthn.generateAuthenticationOptions({ rpID: RP_ID, userVerification: 'required' });
  const forged = { ...other.authenticate(request, ORIGIN), id: credential.id, rawId: credential.id };
  const forgery = await webauthn
    .verifyAuthenticationResponse({
      response: forged as never,
      expectedChallenge: request.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential: { id: credential.id, publicKey: credential.publicKey, counter },
      requireUserVerification: true,
    })
    .then(
      (r) => r.verified,
      () => false,
    );
  return { soft, registration, signIns, forgeryVerified: forgery };
}

/** Every authenticator the ceremonies must accept: the algorithms we offer, with none and packed self-attestation. */
export const ACCEPTED: Array<{ algorithm: SoftAlgorithm; attestation: SoftAttestation }> = [
  { algorithm: 'ES256', attestation: 'none' },
  { algorithm: 'ES256', attestation: 'packed-self' },
  { algorithm: 'RS256', attestation: 'none' },
  { algorithm: 'RS256', attestation: 'packed-self' },
  { algorithm: 'EdDSA', attestation: 'none' },
  { algorithm: 'EdDSA', attestation: 'packed-self' },
];

/** Attestations with certificates (the bytes do not matter: they are refused before parsing). */
const someCertificate = new Uint8Array(Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff));
export const REFUSED: Array<{ algorithm: SoftAlgorithm; attestation: SoftAttestation }> = [
  {
    algorithm: 'ES256',
    attestation: {
      fmt: 'packed',
      attStmt: new Map<string, unknown>([
        ['alg', -7],
        ['sig', new Uint8Array(70)],
        ['x5c', [someCertificate]],
      ]),
    },
  },
  {
    algorithm: 'ES256',
    attestation: {
      fmt: 'fido-u2f',
      attStmt: new Map<string, unknown>([
        ['sig', new Uint8Array(70)],
        ['x5c', [someCertificate]],
      ]),
    },
  },
  {
    algorithm: 'RS256',
    attestation: {
      fmt: 'tpm',
      attStmt: new Map<string, unknown>([
        ['ver', '2.0'],
        ['alg', -257],
        ['x5c', [someCertificate]],
      ]),
    },
  },
  { algorithm: 'ES256', attestation: { fmt: 'apple', attStmt: new Map<string, unknown>([['x5c', [someCertificate]]]) } },
  {
    algorithm: 'ES256',
    attestation: {
      fmt: 'android-key',
      attStmt: new Map<string, unknown>([
        ['alg', -7],
        ['sig', new Uint8Array(70)],
        ['x5c', [someCertificate]],
      ]),
    },
  },
];

/**
 * The ceremony table as tests, through `webauthn()` (read when each test runs, so a module built
 * in `beforeAll` works): every ACCEPTED authenticator registers and signs in twice and a forged
 * assertion fails; every REFUSED attestation is refused with the product's message.
 */
export function itRunsTheCeremonies(webauthn: () => WebauthnModule, refusedTitle: (fmt: string) => string) {
  for (const authenticator of ACCEPTED) {
    it(`registers and signs in with ${authenticator.algorithm}, attestation ${typeof authenticator.attestation === 'string' ? authenticator.attestation : authenticator.attestation.fmt}`, async () => {
      const result = await registerAndSignIn(webauthn(), authenticator);
      expect(result.registration.verified).toBe(true);
      expect(result.registration.registrationInfo?.fmt).toBe(authenticator.attestation === 'none' ? 'none' : 'packed');
      expect(result.signIns.map((signIn) => [signIn.verified, signIn.authenticationInfo.newCounter])).toEqual([
        [true, 1],
        [true, 2],
      ]);
      expect(result.forgeryVerified).toBe(false);
    });
  }

  for (const authenticator of REFUSED) {
    const fmt = typeof authenticator.attestation === 'object' ? authenticator.attestation.fmt : '';
    it(refusedTitle(fmt), async () => {
      await expect(registerAndSignIn(webauthn(), authenticator)).rejects.toThrow(
        `Attestation format "${fmt}" with certificates is not accepted`,
      );
    });
  }
}
