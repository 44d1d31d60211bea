/**
 * Stand-in for the ASN.1 / X.509 packages of @simplewebauthn/server in the passkeys Lambda bundle
 * only (esbuild `--alias`, `PASSKEYS_BUNDLING` in infra/constructs/app-function.ts;
 * docs/lean-builds.md). Tests and the local runtime use the real packages.
 *
 * Why it is safe: the only ASN.1 the passkey flows parse is an ECDSA signature (a DER
 * `SEQUENCE { r INTEGER, s INTEGER }`, unwrapped before WebCrypto verifies an ES256/384/512
 * assertion or a packed self-attestation). Everything else those packages do is reading
 * attestation certificates, and functions/accounts/webauthn.ts refuses every attestation that
 * carries one before the library runs: we ask for `attestation: 'none'`. So the certificate
 * classes below only need to exist (the library imports them and tests `instanceof`); using one
 * throws, which the caller turns into `passkey_verification_failed`.
 *
 * Replaces ~256 KB of minified code (asn1js, @peculiar/x509 with tsyringe and reflect-metadata,
 * @peculiar/asn1-*) that ran at first use.
 */

class CertificateParsingUnavailable extends Error {
  constructor() {
    super('Attestation certificates are not parsed by this function: only "none" and packed self-attestation are accepted');
  }
}

const unavailable = (): never => {
  throw new CertificateParsingUnavailable();
};

/** `@peculiar/asn1-ecc`'s ECDSA-Sig-Value: the schema AsnParser.parse knows. */
export class ECDSASigValue {
  r = new ArrayBuffer(0);
  s = new ArrayBuffer(0);
}

/** Reads one DER TLV at `offset`: definite lengths only, shortest form (DER), within `end`. */
function readTlv(bytes: Uint8Array, offset: number, end: number): { tag: number; start: number; end: number } {
  if (offset + 2 > end) throw new Error('ECDSA signature: truncated DER');
  const tag = bytes[offset];
  let length = bytes[offset + 1];
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    // one length byte covers every ECDSA signature up to P-521 (≤ 139 bytes); 0x80 is indefinite (not DER)
    if (count !== 1 || start + 1 > end) throw new Error('ECDSA signature: unsupported DER length');
    length = bytes[start];
    if (length < 0x80) throw new Error('ECDSA signature: non-minimal DER length');
    start += 1;
  }
  if (start + length > end) throw new Error('ECDSA signature: truncated DER');
  return { tag, start, end: start + length };
}

function readInteger(bytes: Uint8Array, offset: number, end: number) {
  const tlv = readTlv(bytes, offset, end);
  const length = tlv.end - tlv.start;
  if (tlv.tag !== 0x02 || length === 0) throw new Error('ECDSA signature: expected an INTEGER');
  // DER: a leading 0x00 only before a byte with the high bit set, never a negative number
  if (bytes[tlv.start] & 0x80) throw new Error('ECDSA signature: negative INTEGER');
  if (length > 1 && bytes[tlv.start] === 0 && !(bytes[tlv.start + 1] & 0x80)) throw new Error('ECDSA signature: non-minimal INTEGER');
  return { value: bytes.slice(tlv.start, tlv.end).buffer, next: tlv.end };
}

/** Parses a DER ECDSA-Sig-Value into the `{ r, s }` (INTEGER contents) that asn1-schema would give. */
export function parseEcdsaSignature(input: ArrayBuffer | ArrayBufferView): ECDSASigValue {
  const bytes = ArrayBuffer.isView(input) ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(input);
  const sequence = readTlv(bytes, 0, bytes.length);
  if (sequence.tag !== 0x30 || sequence.end !== bytes.length) throw new Error('ECDSA signature: expected one SEQUENCE');
  const r = readInteger(bytes, sequence.start, sequence.end);
  const s = readInteger(bytes, r.next, sequence.end);
  if (s.next !== sequence.end) throw new Error('ECDSA signature: trailing data');
  return Object.assign(new ECDSASigValue(), { r: r.value, s: s.value });
}

/** `@peculiar/asn1-schema`'s parser, for the one schema the passkey flows use. */
export const AsnParser = {
  parse(data: ArrayBuffer | ArrayBufferView, schema: unknown): ECDSASigValue {
    if (schema !== ECDSASigValue) unavailable();
    return parseEcdsaSignature(data);
  },
};

// Certificate-only schemas and classes: present for imports and `instanceof`, unusable.
class Unavailable {
  constructor() {
    unavailable();
  }
}
export class OctetString extends Unavailable {}
export class Certificate extends Unavailable {}
export class BasicConstraints extends Unavailable {}
export class ExtendedKeyUsage extends Unavailable {}
export class SubjectAlternativeName extends Unavailable {}
export class ECParameters extends Unavailable {}
export class RSAPublicKey extends Unavailable {}
export class KeyDescription extends Unavailable {}
export class X509Certificate extends Unavailable {}
export class X509ChainBuilder extends Unavailable {}
export class X509Crl extends Unavailable {}
export class AuthorityKeyIdentifierExtension extends Unavailable {}
export class CRLDistributionPointsExtension extends Unavailable {}
export class SubjectKeyIdentifierExtension extends Unavailable {
  static create = unavailable;
}

// Object identifiers, as the real packages define them (compared only inside certificate code).
export const id_ce_basicConstraints = '2.5.29.19';
export const id_ce_subjectAltName = '2.5.29.17';
export const id_ce_extKeyUsage = '2.5.29.37';
export const id_ce_keyDescription = '1.3.6.1.4.1.11129.2.1.17';
export const id_ecPublicKey = '1.2.840.10045.2.1';
export const id_secp256r1 = '1.2.840.10045.3.1.7';
export const id_secp384r1 = '1.3.132.0.34';
export const id_ecdsaWithSHA256 = '1.2.840.10045.4.3.2';
export const id_ecdsaWithSHA384 = '1.2.840.10045.4.3.3';
export const id_ecdsaWithSHA512 = '1.2.840.10045.4.3.4';
export const id_rsaEncryption = '1.2.840.113549.1.1.1';
export const id_sha1WithRSAEncryption = '1.2.840.113549.1.1.5';
export const id_sha256WithRSAEncryption = '1.2.840.113549.1.1.11';
export const id_sha384WithRSAEncryption = '1.2.840.113549.1.1.12';
export const id_sha512WithRSAEncryption = '1.2.840.113549.1.1.13';
export const id_ml_dsa_44 = '2.16.840.1.101.3.4.3.17';
export const id_ml_dsa_65 = '2.16.840.1.101.3.4.3.18';
export const id_ml_dsa_87 = '2.16.840.1.101.3.4.3.19';
