import { useParams } from 'react-router';
import { CertificateCheck, CertificateLookup } from '../../features/certificate/components/certificate-check';

/** `/certificates/{code}` checks that code; `/certificates` offers the field to type one. */
export default function CertificateCheckRoute() {
  const { code } = useParams();
  return code === undefined ? <CertificateLookup /> : <CertificateCheck code={code} />;
}
