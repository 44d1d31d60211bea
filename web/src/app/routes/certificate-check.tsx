import { useParams } from 'react-router';
import { CertificateCheck } from '../../features/certificate/components/certificate-check';

export default function CertificateCheckRoute() {
  const { code = '' } = useParams();
  return <CertificateCheck code={code} />;
}
