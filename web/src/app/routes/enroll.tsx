import { EnrollPanel } from '../../features/program/components/enroll-panel';

export default function EnrollRoute() {
  return <EnrollPanel />;
}
