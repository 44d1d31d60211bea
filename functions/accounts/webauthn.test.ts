import { describe, expect, it } from 'vitest';
import { ACCEPTED, REFUSED, registerAndSignIn } from '../../test/helpers/webauthn-ceremonies';
import * as webauthn from './webauthn';

/**
 * The ceremonies through functions/accounts/webauthn.ts with the real @simplewebauthn/server.
 * test/infra/passkeys-bundle.test.ts runs the same table through the passkeys Lambda's bundle,
 * where the certificate parsers are left out (docs/lean-builds.md).
 */
describe('passkey ceremonies (source)', () => {
  for (const authenticator of ACCEPTED) {
    it(`registers and signs in with ${authenticator.algorithm}, attestation ${typeof authenticator.attestation === 'string' ? authenticator.attestation : authenticator.attestation.fmt}`, async () => {
      const result = await registerAndSignIn(webauthn, authenticator);
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
    it(`refuses a "${fmt}" attestation with certificates before the library parses it`, async () => {
      await expect(registerAndSignIn(webauthn, authenticator)).rejects.toThrow(
        `Attestation format "${fmt}" with certificates is not accepted`,
      );
    });
  }
});
