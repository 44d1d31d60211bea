import { DashboardView } from '../../features/program/components/dashboard-view';

export default function DashboardRoute() {
  return <DashboardView />;
}
