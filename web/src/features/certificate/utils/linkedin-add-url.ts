import { CERTIFICATE_ISSUER } from '@shared/certificate-code';
import type { CertificateView } from '@shared/program-types';
import { parseDate } from '@/utils/format';

/**
 * LinkedIn's add-to-profile address for a certification, its form filled in: the program as the
 * certification's name, the issuer, the month of issue, the public check as its credential URL
 * and the verification code as its credential ID.
 */
export function linkedInAddToProfileUrl(certificate: CertificateView): string {
  const issued = parseDate(certificate.issued_at) ?? parseDate(certificate.completed_at) ?? new Date();
  const params = new URLSearchParams({
    startTask: 'CERTIFICATION_NAME',
    name: certificate.program_title,
    organizationName: CERTIFICATE_ISSUER,
    issueYear: String(issued.getFullYear()),
    issueMonth: String(issued.getMonth() + 1),
    certUrl: certificate.verify_url,
    certId: certificate.verification_code,
  });
  return `https://www.linkedin.com/profile/add?${params.toString()}`;
}
