import { SIGNED_IN_HINT_COOKIE } from '@shared/constants';

/**
 * The signed-in hint (docs/api.md#the-signed-in-hint): a script-readable cookie the API sets and
 * clears with the session cookie. Without it the browser holds no session, so the SPA does not
 * ask `GET /api/auth/me` (an anonymous page would log a 401 for nothing). A stale hint costs one
 * 401, after which it is cleared here.
 */
const HINT = new RegExp(`(?:^|;\\s*)${SIGNED_IN_HINT_COOKIE}=1(?:;|$)`);

export const holdsSignedInHint = () => HINT.test(document.cookie);

export function clearSignedInHint() {
  // Without `Secure`, so that a page served over plain HTTP (the local runtime) may clear it too.
  document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0`;
}
