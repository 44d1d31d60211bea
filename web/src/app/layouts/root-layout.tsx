import { Link, Outlet } from 'react-router';

/** Placeholder layout: the accounts issue adds the full header (signed-in state, links, Log out). */
export default function RootLayout() {
  return (
    <>
      <header className="site-header">
        <Link to="/" className="brand">
          Career Program
        </Link>
      </header>
      <Outlet />
    </>
  );
}
