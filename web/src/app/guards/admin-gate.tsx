import { Outlet } from 'react-router';

/** Placeholder gate: the accounts issue adds the session and role checks. */
export default function Gate() {
  return <Outlet />;
}
