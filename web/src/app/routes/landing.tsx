import { Link } from 'react-router';

export default function LandingRoute() {
  return (
    <main className="landing">
      <h1>Secure career insights</h1>
      <p>Register, verify your email and sign in with two-factor login to follow the 4-Week Career Program.</p>
      <Link className="button" to="/register">
        Get started
      </Link>
    </main>
  );
}
