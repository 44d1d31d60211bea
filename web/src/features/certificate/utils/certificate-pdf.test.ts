import { describe, expect, it } from 'vitest';
import { certificatePdf } from './certificate-pdf';

describe('certificatePdf', () => {
  it('makes a one-page PDF naming the learner, the program, the date and the verification code', async () => {
    const blob = await certificatePdf({
      verification_code: 'AB12-CD34-EF56',
      first_name: 'Maya',
      last_name: 'Okafor',
      program_title: '4-Week Career Program',
      completed_at: '2026-11-20T15:00:00.000Z',
      issued_at: '2026-11-21T09:00:00.000Z',
      verify_url: 'https://example.com/certificates/AB12-CD34-EF56',
    });
    const text = await blob.text();
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text.match(/\/Type \/Page\b/g)).toHaveLength(1);
    for (const expected of [
      'Maya Okafor',
      '4-Week Career Program',
      'Verification code: AB12-CD34-EF56',
      'Check it at https://example.com/certificates/AB12-CD34-EF56',
      'CERTIFICATE OF COMPLETION',
    ]) {
      expect(text).toContain(`(${expected}) Tj`);
    }
  });
});
