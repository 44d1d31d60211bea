import { Link, Navigate } from 'react-router';
import { paths } from '../../config/paths';
import { ProgramOverview } from '../../features/landing/components/program-overview';
import { isAdmin, useUser } from '../../lib/auth';

export default function LandingRoute() {
  const { data: user } = useUser();
  if (isAdmin(user)) return <Navigate to={paths.admin.dashboard} replace />;
  return (
    <main className="landing">
      <h1>Secure career insights</h1>
      <p className="landing__subtitle">
        Register, verify your email and sign in with two-factor login to follow the 4-Week Career Program.
      </p>
      <Link className="button button--primary button--large" to={paths.register}>
        Get started
      </Link>
      <ProgramOverview />
    </main>
  );
}
