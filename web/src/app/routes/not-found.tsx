import { Link } from 'react-router';

export default function NotFoundRoute() {
  return (
    <main className="page">
      <h1>Page not found</h1>
      <p>The page you asked for does not exist.</p>
      <Link to="/">Go to the home page</Link>
    </main>
  );
}
