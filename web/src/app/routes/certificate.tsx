import { CertificatePage } from '../../features/certificate/components/certificate-page';

export default function CertificateRoute() {
  return <CertificatePage />;
}
