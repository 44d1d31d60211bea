import type { jsPDF as JsPdf } from 'jspdf';
import { CERTIFICATE_ISSUER } from '@shared/certificate-code';
import type { CertificateView } from '@shared/program-types';
import { formatLongDate } from '@/utils/format';
import { needsCjkFont, type CertificateFonts } from './certificate-fonts';
import { qrModules } from './qr-modules';

type Weight = 'normal' | 'bold';
const NOTO = 'NotoSans';
const NOTO_CJK = 'NotoSansSC';

// jsPDF reads a font from its virtual file system as a binary string (one char per byte).
function binaryString(bytes: Uint8Array): string {
  let out = '';
  for (let at = 0; at < bytes.length; at += 0x8000) out += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return out;
}

function addFonts(doc: JsPdf, fonts: CertificateFonts) {
  const add = (file: string, bytes: Uint8Array, family: string, weight: Weight) => {
    doc.addFileToVFS(file, binaryString(bytes));
    doc.addFont(file, family, weight);
  };
  add('NotoSans-Regular.ttf', fonts.regular, NOTO, 'normal');
  add('NotoSans-Bold.ttf', fonts.bold, NOTO, 'bold');
  if (fonts.cjk) {
    const file = binaryString(fonts.cjk);
    doc.addFileToVFS('NotoSansSC-Bold.ttf', file);
    // one weight serves both: the characters matter more than the stroke
    doc.addFont('NotoSansSC-Bold.ttf', NOTO_CJK, 'normal');
    doc.addFont('NotoSansSC-Bold.ttf', NOTO_CJK, 'bold');
  }
}

/** The QR code of `url`, `size` mm square with its top left corner at (x, y). */
function drawQrCode(doc: JsPdf, url: string, x: number, y: number, size: number) {
  const modules = qrModules(url);
  const cell = size / modules.length;
  doc.setFillColor(0, 0, 0);
  modules.forEach((cells, row) =>
    cells.forEach((dark, col) => {
      if (dark) doc.rect(x + col * cell, y + row * cell, cell, cell, 'F');
    }),
  );
}

/**
 * The certificate as a one-page landscape A4 PDF, made in the browser with jsPDF (loaded only
 * when the learner asks for the file). In the browser, not in the API: the page already holds
 * every value, the file needs no server round trip, and the Lambda bundles stay small. Every text
 * is set in an embedded Unicode font, so a name in any of the fonts' scripts prints as typed and
 * extracts back from the file as typed.
 */
export async function certificatePdf(certificate: CertificateView, fonts: CertificateFonts): Promise<Blob> {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4' });
  addFonts(doc, fonts);
  const width = doc.internal.pageSize.getWidth();
  const height = doc.internal.pageSize.getHeight();
  const center = width / 2;
  const name = `${certificate.first_name} ${certificate.last_name}`.trim();

  const write = (text: string, y: number, size: number, weight: Weight, color: [number, number, number]) => {
    doc.setFont(fonts.cjk && needsCjkFont(text) ? NOTO_CJK : NOTO, weight);
    doc.setFontSize(size);
    doc.setTextColor(...color);
    doc.text(text, center, y, { align: 'center', maxWidth: width - 50 });
  };
  const muted: [number, number, number] = [75, 85, 99];
  const ink: [number, number, number] = [31, 41, 55];
  const blue: [number, number, number] = [29, 78, 216];

  doc.setProperties({ title: `Certificate of completion — ${name}`, subject: certificate.program_title, creator: CERTIFICATE_ISSUER });
  doc.setDrawColor(...blue);
  doc.setLineWidth(1.5);
  doc.rect(10, 10, width - 20, height - 20);
  doc.setLineWidth(0.4);
  doc.rect(14, 14, width - 28, height - 28);

  write('CERTIFICATE OF COMPLETION', 45, 14, 'normal', muted);
  write('This certifies that', 68, 13, 'normal', muted);
  write(name, 88, 32, 'bold', ink);
  write('has completed every module of the', 106, 13, 'normal', muted);
  write(certificate.program_title, 120, 20, 'bold', blue);
  write(`Completed on ${formatLongDate(certificate.completed_at)}`, 136, 13, 'normal', ink);
  write(`Issued by ${CERTIFICATE_ISSUER}`, 146, 12, 'normal', muted);

  write(`Verification code: ${certificate.verification_code}`, height - 38, 10, 'normal', muted);
  const check = `Check it at ${certificate.verify_url}`;
  write(check, height - 31, 10, 'normal', blue);
  // the whole line opens the public check in a PDF reader
  const checkWidth = doc.getTextWidth(check);
  doc.link(center - checkWidth / 2, height - 31 - 3.5, checkWidth, 5, { url: certificate.verify_url });
  drawQrCode(doc, certificate.verify_url, width - 54, height - 54, 30);
  return doc.output('blob');
}
