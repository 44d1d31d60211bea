/**
 * Certificate verification codes: 12 characters of Crockford's base32 (no I, L, O, U, so none
 * is mistaken for another when read aloud or copied by hand), shown as XXXX-XXXX-XXXX. A code
 * typed by a person is read the way that alphabet intends (docs/product.md "Certificates"): any
 * case, dashes or spaces anywhere, I and L as 1, O as 0.
 */
export const CERTIFICATE_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Who issues the certificate, as the certificate and its public check name it. */
export const CERTIFICATE_ISSUER = 'Career Program';

const LOOK_ALIKES: Record<string, string> = { I: '1', L: '1', O: '0' };
// Separators a person or a copy-paste puts in a code: spaces of any kind and dashes of any kind.
const SEPARATORS = /[\s\u00a0\u2010-\u2015\u2212_-]+/g;

/** The canonical `XXXX-XXXX-XXXX` form of a typed code, or null when it cannot be one. */
export function normalizeCertificateCode(raw: string): string | null {
  if (raw.length > 64) return null;
  const chars = [...raw.replace(SEPARATORS, '').toUpperCase()].map((char) => LOOK_ALIKES[char] ?? char).join('');
  if (chars.length !== 12 || [...chars].some((char) => !CERTIFICATE_CODE_ALPHABET.includes(char))) return null;
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}
