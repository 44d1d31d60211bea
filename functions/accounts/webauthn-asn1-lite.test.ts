import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { AsnParser as RealAsnParser } from '@peculiar/asn1-schema';
import { ECDSASigValue as RealECDSASigValue } from '@peculiar/asn1-ecc';
import { describe, expect, it } from 'vitest';
import {
  AsnParser,
  Certificate,
  ECDSASigValue,
  OctetString,
  parseEcdsaSignature,
  SubjectKeyIdentifierExtension,
  X509Certificate,
} from './webauthn-asn1-lite';

const hex = (buffer: ArrayBuffer) => Buffer.from(buffer).toString('hex');

describe('webauthn-asn1-lite (the passkeys bundle stand-in for the ASN.1 packages)', () => {
  it('reads every ECDSA signature exactly as @peculiar/asn1-schema does (P-256, P-384, P-521)', () => {
    for (const [curve, hash] of [
      ['P-256', 'sha256'],
      ['P-384', 'sha384'],
      ['P-521', 'sha512'],
    ] as const) {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: curve });
      // enough signatures to meet short r/s (leading zero bytes dropped) and high-bit ones (a 0x00 added)
      for (let i = 0; i < 200; i += 1) {
        const der = sign(hash, randomBytes(32), privateKey);
        const real = RealAsnParser.parse(der, RealECDSASigValue);
        const lite = AsnParser.parse(new Uint8Array(der), ECDSASigValue);
        expect([hex(lite.r), hex(lite.s)], `${curve} #${i}`).toEqual([hex(real.r), hex(real.s)]);
      }
    }
  });

  it('accepts an ArrayBuffer or a view into a larger buffer', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const der = sign('sha256', Buffer.from('data'), privateKey);
    const padded = Buffer.concat([Buffer.from([9, 9, 9]), der, Buffer.from([7])]);
    const view = new Uint8Array(padded.buffer, padded.byteOffset + 3, der.length);
    const real = RealAsnParser.parse(der, RealECDSASigValue);
    expect(hex(parseEcdsaSignature(view).r)).toBe(hex(real.r));
    expect(hex(parseEcdsaSignature(new Uint8Array(der).slice().buffer).s)).toBe(hex(real.s));
  });

  it('refuses what is not one DER SEQUENCE of two positive, minimal INTEGERs', () => {
    const valid = [0x30, 0x06, 0x02, 0x01, 0x05, 0x02, 0x01, 0x07];
    expect(hex(parseEcdsaSignature(new Uint8Array(valid)).r)).toBe('05');
    for (const [name, bytes] of [
      ['empty', []],
      ['not a SEQUENCE', [0x31, ...valid.slice(1)]],
      ['trailing bytes after the SEQUENCE', [...valid, 0x00]],
      ['SEQUENCE longer than the data', [0x30, 0x07, ...valid.slice(2)]],
      ['one INTEGER only', [0x30, 0x03, 0x02, 0x01, 0x05]],
      ['three INTEGERs', [0x30, 0x09, ...valid.slice(2), 0x02, 0x01, 0x01]],
      ['an OCTET STRING for r', [0x30, 0x06, 0x04, 0x01, 0x05, 0x02, 0x01, 0x07]],
      ['an empty INTEGER', [0x30, 0x05, 0x02, 0x00, 0x02, 0x01, 0x07]],
      ['a negative INTEGER', [0x30, 0x06, 0x02, 0x01, 0x85, 0x02, 0x01, 0x07]],
      ['a non-minimal INTEGER', [0x30, 0x07, 0x02, 0x02, 0x00, 0x05, 0x02, 0x01, 0x07]],
      ['an indefinite length', [0x30, 0x80, ...valid.slice(2), 0x00, 0x00]],
      ['a long-form length under 128', [0x30, 0x81, 0x06, ...valid.slice(2)]],
      ['an INTEGER running past the SEQUENCE', [0x30, 0x06, 0x02, 0x01, 0x05, 0x02, 0x05, 0x07]],
    ] as const) {
      expect(() => parseEcdsaSignature(new Uint8Array(bytes)), name).toThrow(/ECDSA signature/);
    }
  });

  it('parses no certificate: every other schema and class throws', () => {
    expect(() => AsnParser.parse(new Uint8Array([0x30, 0x00]), Certificate)).toThrow(/not parsed by this function/);
    expect(() => AsnParser.parse(new Uint8Array([0x04, 0x00]), OctetString)).toThrow(/not parsed by this function/);
    expect(() => new X509Certificate()).toThrow(/not parsed by this function/);
    expect(() => SubjectKeyIdentifierExtension.create()).toThrow(/not parsed by this function/);
  });
});
