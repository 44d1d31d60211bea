import { useState } from 'react';
import { Link } from 'react-router';
import { CERTIFICATE_ISSUER } from '@shared/certificate-code';
import type { CertificateView } from '@shared/program-types';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadingText } from '@/components/ui/loading-text';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { downloadFile } from '@/utils/download-file';
import { useCertificate } from '../api/get-certificate';
import { loadCertificateFonts } from '../utils/certificate-fonts';
import { certificatePdf } from '../utils/certificate-pdf';
import { formatLongDate } from '@/utils/format';
import { CertificateShare } from './certificate-share';
import { QrCode } from './qr-code';
import '../certificate.css';

/** The printable certificate itself (also used by the print stylesheet: nothing else prints). */
export function CertificateCard({ certificate }: { certificate: CertificateView }) {
  return (
    <article className="cert" aria-labelledby="cert-title">
      <p id="cert-title" className="cert__kicker">
        Certificate of completion
      </p>
      <p className="cert__line">This certifies that</p>
      <p className="cert__name">
        {certificate.first_name} {certificate.last_name}
      </p>
      <p className="cert__line">has completed every module of the</p>
      <p className="cert__program">{certificate.program_title}</p>
      <p className="cert__line">Completed on {formatLongDate(certificate.completed_at)}</p>
      <p className="cert__line">{`Issued by ${CERTIFICATE_ISSUER}`}</p>
      <div className="cert__check">
        <p className="cert__code">
          Verification code: <strong>{certificate.verification_code}</strong>
          <br />
          Check it at <a href={certificate.verify_url}>{certificate.verify_url}</a>
        </p>
        <QrCode text={certificate.verify_url} label="QR code of the check address" />
      </div>
    </article>
  );
}

/** `/certificate`: the learner's certificate with Print, Download PDF and ways to share it, or why there is none yet. */
export function CertificatePage() {
  const certificate = useCertificate();
  const [pdf, setPdf] = useState<'idle' | 'busy' | 'failed'>('idle');

  const download = async (data: CertificateView) => {
    setPdf('busy');
    try {
      const fonts = await loadCertificateFonts([data.first_name, data.last_name, data.program_title, formatLongDate(data.completed_at)]);
      downloadFile(await certificatePdf(data, fonts), `certificate-${data.verification_code}.pdf`);
      setPdf('idle');
    } catch {
      setPdf('failed');
    }
  };

  if (certificate.isPending) {
    return (
      <main className="page cert-page">
        <h1>Your certificate</h1>
        <LoadingText>Loading your certificate…</LoadingText>
      </main>
    );
  }
  if (certificate.isError) {
    const error = certificate.error;
    const code = error instanceof ApiError ? error.code : undefined;
    const body = error instanceof ApiError ? error.body : {};
    return (
      <main className="page cert-page">
        <h1>Your certificate</h1>
        {code === 'program_not_completed' ? (
          <>
            <p>
              Your certificate is waiting at the finish line: complete every module to earn it
              {typeof body.completed === 'number' && typeof body.total === 'number'
                ? ` (${body.completed} of ${body.total} done so far)`
                : ''}
              .
            </p>
            <Link to={paths.dashboard}>Back to your dashboard</Link>
          </>
        ) : code === 'certificate_revoked' ? (
          <FormAlert>This certificate has been revoked by an administrator. Contact them if you think this is a mistake.</FormAlert>
        ) : code === 'not_enrolled' ? (
          <>
            <p>You are not enrolled in the program yet.</p>
            <Link to={paths.enroll}>Enroll now</Link>
          </>
        ) : (
          <>
            <FormAlert>Unable to load your certificate right now. Please try again.</FormAlert>
            <Button variant="secondary" onClick={() => void certificate.refetch()}>
              Try again
            </Button>
          </>
        )}
      </main>
    );
  }

  const data = certificate.data;
  return (
    <main className="page cert-page">
      <div className="cert-page__head">
        <h1>Your certificate</h1>
        <p>Congratulations on completing the program! Print it, save it as a PDF, or share its check address.</p>
        <div className="cert-page__actions">
          <Button onClick={() => void download(data)} disabled={pdf === 'busy'} aria-busy={pdf === 'busy'}>
            {pdf === 'busy' ? 'Preparing PDF…' : 'Download PDF'}
          </Button>
          <Button variant="secondary" onClick={() => window.print()}>
            Print
          </Button>
          <Link to={paths.dashboard}>Back to your dashboard</Link>
        </div>
        <CertificateShare certificate={data} />
        {pdf === 'failed' && <FormAlert>Unable to make the PDF. Please try again, or use Print and save as PDF.</FormAlert>}
      </div>
      <CertificateCard certificate={data} />
    </main>
  );
}
