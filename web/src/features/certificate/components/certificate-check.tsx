import { useEffect } from 'react';
import { Link, Navigate } from 'react-router';
import { CERTIFICATE_ISSUER, normalizeCertificateCode } from '@shared/certificate-code';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadingText } from '@/components/ui/loading-text';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { usePublicCertificate } from '../api/get-public-certificate';
import { formatLongDate } from '@/utils/format';
import { CertificateCodeForm } from './certificate-code-form';
import '../certificate.css';

/**
 * `/certificates/{code}`: anyone (an employer, a recruiter) checks a certificate without signing
 * in. A code typed another way (lower case, spaces, look-alikes) moves to its canonical address.
 */
export function CertificateCheck({ code }: { code: string }) {
  const canonical = normalizeCertificateCode(code);
  if (canonical && canonical !== code) return <Navigate to={paths.certificateCheck(canonical)} replace />;
  return <CertificateResult code={code} />;
}

/** `/certificates`: the field alone, for a code read off a printed certificate. */
export function CertificateLookup() {
  useCheckTitle();
  return (
    <main className="page cert-check">
      <h1>Certificate check</h1>
      <p>{`Check a certificate issued by ${CERTIFICATE_ISSUER}: type the code printed on it.`}</p>
      <CertificateCodeForm label="Verification code" />
      <Link to={paths.home}>About the Career Program</Link>
    </main>
  );
}

function useCheckTitle() {
  useEffect(() => {
    const before = document.title;
    document.title = `Certificate check · ${CERTIFICATE_ISSUER}`;
    return () => {
      document.title = before;
    };
  }, []);
}

function CertificateResult({ code }: { code: string }) {
  const check = usePublicCertificate(code);
  useCheckTitle();
  return (
    <main className="page cert-check">
      <h1>Certificate check</h1>
      {check.isPending ? (
        <LoadingText>Checking the certificate…</LoadingText>
      ) : check.isError ? (
        check.error instanceof ApiError && check.error.status === 404 ? (
          <FormAlert>No certificate has the code {code}. Check the code and try again.</FormAlert>
        ) : (
          <FormAlert>Unable to check the certificate right now. Please try again.</FormAlert>
        )
      ) : (
        <section className={`cert-check__result cert-check__result--${check.data.status}`} aria-label="Result">
          <p className="cert-check__status" role="status">
            {check.data.status === 'valid'
              ? 'This certificate is valid.'
              : `This certificate was revoked${check.data.revoked_at ? ` on ${formatLongDate(check.data.revoked_at)}` : ''}.`}
          </p>
          <dl className="cert-check__facts">
            <dt>Name</dt>
            <dd>{check.data.name}</dd>
            <dt>Program</dt>
            <dd>{check.data.program_title}</dd>
            <dt>Completed on</dt>
            <dd>{formatLongDate(check.data.completed_at)}</dd>
            <dt>Verification code</dt>
            <dd>{check.data.verification_code}</dd>
            <dt>Issued by</dt>
            <dd>{CERTIFICATE_ISSUER}</dd>
          </dl>
        </section>
      )}
      <CertificateCodeForm label="Check another code" />
      <Link to={paths.home}>About the Career Program</Link>
    </main>
  );
}
