import { describe } from 'vitest';
import { itRunsTheCeremonies } from '../../test/helpers/webauthn-ceremonies';
import * as webauthn from './webauthn';

/** The ceremonies through functions/accounts/webauthn.ts with the real @simplewebauthn/server. */
describe('passkey ceremonies (source)', () => {
  itRunsTheCeremonies(
    () => webauthn,
    (fmt) => `refuses a "${fmt}" attestation with certificates before the library parses it`,
  );
});
