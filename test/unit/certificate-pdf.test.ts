import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import type { CertificateView } from '../../shared/program-types';
import { needsCjkFont, type CertificateFonts } from '../../web/src/features/certificate/utils/certificate-fonts';
import { certificatePdf } from '../../web/src/features/certificate/utils/certificate-pdf';
import { readPdf } from '../helpers/pdf-text';

const fontFile = (path: string) => new Uint8Array(readFileSync(createRequire(import.meta.url).resolve(path)));
const FONTS: CertificateFonts = {
  regular: fontFile('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
  bold: fontFile('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
};
const CJK_FONTS: CertificateFonts = { ...FONTS, cjk: fontFile('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf') };

const certificate = (first_name: string, last_name: string): CertificateView => ({
  verification_code: 'AB12-CD34-EF56',
  first_name,
  last_name,
  program_title: '4-Week Career Program',
  completed_at: '2026-11-20T15:00:00.000Z',
  issued_at: '2026-11-21T09:00:00.000Z',
  verify_url: 'https://example.com/certificates/AB12-CD34-EF56',
});

const openPdf = async (blob: Blob) => readPdf(new Uint8Array(await blob.arrayBuffer()));

/** Reads the QR code back from the filled squares drawn in the page's content stream. */
function decodeQr(pdfText: string): string | undefined {
  const squares = [...pdfText.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) -([\d.]+) re\nf/g)]
    .map((m) => m.slice(1).map(Number))
    .filter(([, , w, h]) => Math.abs(w - h) < 0.01 && w < 10);
  const cell = squares[0][2];
  const left = Math.min(...squares.map(([x]) => x));
  // PDF space grows upwards: the first row has the highest y
  const top = Math.max(...squares.map(([, y]) => y));
  const modules = Math.round((Math.max(...squares.map(([x]) => x)) - left) / cell) + 1;
  // each module 4 px, with a 4-module quiet zone around the symbol
  const px = 4;
  const side = (modules + 8) * px;
  const image = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [x, y] of squares) {
    const col = Math.round((x - left) / cell) + 4;
    const row = Math.round((top - y) / cell) + 4;
    for (let dy = 0; dy < px; dy++)
      for (let dx = 0; dx < px; dx++)
        image.fill(0, ((row * px + dy) * side + col * px + dx) * 4, ((row * px + dy) * side + col * px + dx) * 4 + 3);
  }
  return jsQR(image, side, side)?.data;
}

// Each file embeds fonts of 0.6 to 10 MB: seconds on a busy 2-core machine.
describe('certificatePdf', { timeout: 30_000 }, () => {
  it('makes one landscape page naming the learner, the program, the issuer, with a clickable check link and a QR code of it', async () => {
    const blob = await certificatePdf(certificate('Maya', 'Okafor'), FONTS);
    const { pages, lines, links } = await openPdf(blob);
    expect(pages).toHaveLength(1);
    expect(pages[0].width).toBeGreaterThan(pages[0].height);
    for (const expected of [
      'CERTIFICATE OF COMPLETION',
      'Maya Okafor',
      '4-Week Career Program',
      'Issued by Career Program',
      'Verification code: AB12-CD34-EF56',
      'Check it at https://example.com/certificates/AB12-CD34-EF56',
    ])
      expect(lines).toContain(expected);
    expect(links).toEqual(['https://example.com/certificates/AB12-CD34-EF56']);
    expect(decodeQr(await blob.text())).toBe('https://example.com/certificates/AB12-CD34-EF56');
  });

  const names: Array<[string, string, string]> = [
    ['Polish and Vietnamese', 'Łukasz', 'Nguyễn'],
    ['Vietnamese', 'Trần Thị', 'Phương Thảo'],
    ['Greek', 'Αλέξανδρος', 'Παπαδόπουλος'],
    ['Cyrillic', 'Ёлка', 'Щербаков-Йыван'],
  ];
  it.each(names)('embeds a font that writes a %s name as typed (its text extracts back exactly)', async (_script, first, last) => {
    const { lines } = await openPdf(await certificatePdf(certificate(first, last), FONTS));
    expect(lines).toContain(`${first} ${last}`);
  });

  it('writes Chinese and Japanese names with the CJK font, loaded only for them', async () => {
    expect(needsCjkFont('Łukasz Nguyễn Αλέξανδρος Ёлка')).toBe(false);
    // Han ideographs (Chinese and Japanese) and kana in one name
    const [first, last] = ['山田', 'さくら'];
    expect(needsCjkFont(`${first} ${last}`)).toBe(true);
    const { lines } = await openPdf(await certificatePdf(certificate(first, last), CJK_FONTS));
    expect(lines).toContain(`${first} ${last}`);
    expect(lines).toContain('Issued by Career Program');
  });
});
