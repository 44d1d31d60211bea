import { describe } from 'vitest';
import { itRunsTheCeremonies } from '../../test/helpers/webauthn-ceremonies';
import * as webauthn from './webauthn';

/**
 * The ceremonies through functions/accounts/webauthn.ts with the real @simplewebauthn/server.
 * test/infra/passkeys-bundle.test.ts runs the same table through the passkeys Lambda's bundle,
 * where the certificate parsers are left out (docs/lean-builds.md).
 */
describe('passkey ceremonies (source)', () => {
  itRunsTheCeremonies(
    () => webauthn,
    (fmt) => `refuses a "${fmt}" attestation with certificates before the library parses it`,
  );
});
