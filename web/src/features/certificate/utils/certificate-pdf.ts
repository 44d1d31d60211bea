import type { CertificateView } from '../../../../../shared/program-types';
import { formatLongDate } from '../../../utils/format';

/**
 * The certificate as a one-page landscape A4 PDF, made in the browser with jsPDF (loaded only
 * when the learner asks for the file). In the browser, not in the API: the page already holds
 * every value, the file needs no server round trip, and the Lambda bundles stay small.
 */
export async function certificatePdf(certificate: CertificateView): Promise<Blob> {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4' });
  const width = doc.internal.pageSize.getWidth();
  const height = doc.internal.pageSize.getHeight();
  const center = width / 2;
  const name = `${certificate.first_name} ${certificate.last_name}`.trim();

  doc.setProperties({ title: `Certificate of completion — ${name}`, subject: certificate.program_title, creator: 'Career Program' });
  doc.setDrawColor(29, 78, 216);
  doc.setLineWidth(1.5);
  doc.rect(10, 10, width - 20, height - 20);
  doc.setLineWidth(0.4);
  doc.rect(14, 14, width - 28, height - 28);

  doc.setFont('helvetica', 'normal');
  doc.setTextColor(75, 85, 99);
  doc.setFontSize(14);
  doc.text('CERTIFICATE OF COMPLETION', center, 45, { align: 'center' });
  doc.setFontSize(13);
  doc.text('This certifies that', center, 68, { align: 'center' });
  doc.setFont('helvetica', 'bold');
  doc.setTextColor(31, 41, 55);
  doc.setFontSize(32);
  doc.text(name, center, 88, { align: 'center', maxWidth: width - 50 });
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(13);
  doc.setTextColor(75, 85, 99);
  doc.text('has completed every module of the', center, 106, { align: 'center' });
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(20);
  doc.setTextColor(29, 78, 216);
  doc.text(certificate.program_title, center, 120, { align: 'center' });
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(13);
  doc.setTextColor(31, 41, 55);
  doc.text(`Completed on ${formatLongDate(certificate.completed_at)}`, center, 136, { align: 'center' });

  doc.setFontSize(10);
  doc.setTextColor(75, 85, 99);
  doc.text(`Verification code: ${certificate.verification_code}`, center, height - 38, { align: 'center' });
  doc.text(`Check it at ${certificate.verify_url}`, center, height - 31, { align: 'center' });
  return doc.output('blob');
}
