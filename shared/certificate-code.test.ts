import { describe, expect, it } from 'vitest';
import { normalizeCertificateCode } from './certificate-code';

describe('normalizeCertificateCode', () => {
  it('reads any case, dashes or spaces, and the look-alikes the alphabet leaves out', () => {
    for (const typed of ['DXSQ-AVG0-QC53', 'dxsqavg0qc53', ' dxsq avg0 qc53 ', 'DXSQ—AVG0–QC53', 'dxsq-avgo-qc53', 'DXSQ AVGO QC53'])
      expect(normalizeCertificateCode(typed), typed).toBe('DXSQ-AVG0-QC53');
    expect(normalizeCertificateCode('1111-iiii-llll')).toBe('1111-1111-1111');
  });

  it('refuses what cannot be a code', () => {
    for (const typed of ['', 'nope', 'DXSQ-AVG0-QC5', 'DXSQ-AVG0-QC533', 'DXSQ-AVGU-QC53', 'DXSQ-AVG0-QC5!', 'x'.repeat(300)])
      expect(normalizeCertificateCode(typed), typed).toBeNull();
  });
});
