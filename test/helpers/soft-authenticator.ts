import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for integration tests: a P-256 key (or another algorithm),
 * "none" attestation (or another statement), user presence and verification flags, a signature
 * counter. It answers the options the API sends exactly as a browser + platform authenticator
 * would (the JSON of @simplewebauthn/browser).
 */
const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

/** COSE algorithms the authenticator can hold a key for. */
export type SoftAlgorithm = 'ES256' | 'ES384' | 'ES512' | 'RS256' | 'EdDSA';
const ALGORITHMS: Record<
  SoftAlgorithm,
  { cose: number; hash: string | null; create: () => { privateKey: KeyObject; publicKey: KeyObject } }
> = {
  ES256: { cose: -7, hash: 'sha256', create: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }) },
  ES384: { cose: -35, hash: 'sha384', create: () => generateKeyPairSync('ec', { namedCurve: 'P-384' }) },
  ES512: { cose: -36, hash: 'sha512', create: () => generateKeyPairSync('ec', { namedCurve: 'P-521' }) },
  RS256: { cose: -257, hash: 'sha256', create: () => generateKeyPairSync('rsa', { modulusLength: 2048 }) },
  EdDSA: { cose: -8, hash: null, create: () => generateKeyPairSync('ed25519') },
};
const EC_CURVES: Record<string, number> = { 'P-256': 1, 'P-384': 2, 'P-521': 3 };
/**
 * The attestation statement the authenticator returns: "none", packed self-attestation (signed
 * by the credential's own key, no certificate), or any format and statement given as is.
 */
export type SoftAttestation = 'none' | 'packed-self' | { fmt: string; attStmt: Map<string, unknown> };

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  counter = 0;
  /** The user handle stored with the credential at registration (what a discoverable credential returns). */
  userHandle = '';
  /** Whether the authenticator reports user verification (UV flag); tests turn it off. */
  userVerified: boolean;

  readonly algorithm: SoftAlgorithm;
  readonly attestation: SoftAttestation;
  /** The model id the authenticator reports at registration (all zeros unless given, like Chromium's virtual one). */
  readonly aaguid: Buffer;

  constructor(options: { userVerified?: boolean; algorithm?: SoftAlgorithm; attestation?: SoftAttestation; aaguid?: string } = {}) {
    this.userVerified = options.userVerified !== false;
    this.aaguid = options.aaguid ? Buffer.from(options.aaguid.replaceAll('-', ''), 'hex') : Buffer.alloc(16);
    this.algorithm = options.algorithm ?? 'ES256';
    this.attestation = options.attestation ?? 'none';
    const pair = ALGORITHMS[this.algorithm].create();
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  /** A signature as the authenticator makes it (ECDSA: DER-encoded). */
  private sign(data: Buffer): Buffer {
    return sign(ALGORITHMS[this.algorithm].hash, data, this.privateKey);
  }

  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const bytes = (value: string | undefined) => new Uint8Array(Buffer.from(value!, 'base64url'));
    const alg = ALGORITHMS[this.algorithm].cose;
    const entries: Array<[number, number | Uint8Array]> =
      jwk.kty === 'EC'
        ? [
            [1, 2],
            [3, alg],
            [-1, EC_CURVES[jwk.crv!]],
            [-2, bytes(jwk.x)],
            [-3, bytes(jwk.y)],
          ]
        : jwk.kty === 'RSA'
          ? [
              [1, 3],
              [3, alg],
              [-1, bytes(jwk.n)],
              [-2, bytes(jwk.e)],
            ]
          : [
              [1, 1],
              [3, alg],
              [-1, 6],
              [-2, bytes(jwk.x)],
            ];
    return isoCBOR.encode(new Map<number, number | Uint8Array>(entries));
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private flags(extra = 0) {
    return FLAG_UP | (this.userVerified ? FLAG_UV : 0) | extra;
  }

  private counterBytes() {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(this.counter);
    return bytes;
  }

  /** Answers `navigator.credentials.create()` for the given creation options. */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, origin: string) {
    this.userHandle = options.user.id;
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }),
    );
    const coseKey = this.coseKey();
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(options.rp.id ?? 'localhost'),
      Buffer.from([this.flags(FLAG_AT)]),
      this.counterBytes(),
      this.aaguid,
      idLength,
      this.credentialId,
      Buffer.from(coseKey),
    ]);
    const statement =
      this.attestation === 'none'
        ? { fmt: 'none', attStmt: new Map() }
        : this.attestation === 'packed-self'
          ? {
              fmt: 'packed',
              attStmt: new Map<string, unknown>([
                ['alg', ALGORITHMS[this.algorithm].cose],
                ['sig', new Uint8Array(this.sign(Buffer.concat([authData, sha256(clientDataJSON)])))],
              ]),
            }
          : this.attestation;
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', statement.fmt],
        ['attStmt', statement.attStmt],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Answers `navigator.credentials.get()` for the given request options. */
  authenticate(options: { challenge: string; rpId?: string }, origin: string, overrides: { userHandle?: string } = {}) {
    this.counter += 1;
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
    const authData = Buffer.concat([sha256(options.rpId ?? 'localhost'), Buffer.from([this.flags()]), this.counterBytes()]);
    const signature = this.sign(Buffer.concat([authData, sha256(clientDataJSON)]));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: overrides.userHandle ?? this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
