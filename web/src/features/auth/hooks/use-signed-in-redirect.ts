import { useState } from 'react';
import { paths } from '@/config/paths';
import { isAdmin, useUser } from '@/lib/auth';

/**
 * Where someone already signed in should go instead of /login or /register: their dashboard.
 * Decided once, from the session found on arrival: signing in on this very page routes through
 * the form (and its return path), not through this redirect.
 */
export function useSignedInRedirect(skip = false): string | null {
  const { data: user, isPending } = useUser();
  const [onArrival, setOnArrival] = useState<string | null | undefined>(undefined);
  // After a session ended the cached profile is stale: never bounce back on it.
  if (skip) return null;
  if (onArrival === undefined && !isPending) {
    // Kept in state, set once during render (React's "adjusting state when a prop changes").
    const decided = user ? (isAdmin(user) ? paths.admin.dashboard : paths.dashboard) : null;
    setOnArrival(decided);
    return decided;
  }
  return onArrival ?? null;
}
