import { Outlet } from 'react-router';
import { useSessionCheck } from './session-check';

/** Signed-in pages. A convenience only: the API refuses every call without a session anyway. */
export default function SessionGate() {
  const { element } = useSessionCheck('Checking your session…');
  return element ?? <Outlet />;
}
