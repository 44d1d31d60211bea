/**
 * A session that ends says so (docs/product.md#10-journeys): when a signed-in person's session expires or
 * is ended elsewhere, they land on /login with a message and, once signed in again, return to
 * the page they were on. Only a same-origin path is ever followed back (no open redirect).
 */
export const SESSION_ENDED_TEXT = 'Your session has ended. Sign in again.';
export const ENDED_REASON = 'session_ended';

/** Remembers across reloads that this browser had a session, to tell "ended" from "never signed in". */
const SIGNED_IN_KEY = 'career.hadSession';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export const markSignedIn = () => storage()?.setItem(SIGNED_IN_KEY, '1');
export const clearSignedIn = () => storage()?.removeItem(SIGNED_IN_KEY);
export const hadSession = () => storage()?.getItem(SIGNED_IN_KEY) === '1';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const NEVER_BACK_TO = new Set(['/login', '/register']);

/**
 * `raw` as a path of this site, or null: it must start with one "/" (not "//" nor "/\\", which
 * browsers read as another host), carry no control characters, and resolve to this origin.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 2048 || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || CONTROL.test(raw)) return null;
  try {
    const url = new URL(raw, window.location.origin);
    if (url.origin !== window.location.origin || NEVER_BACK_TO.has(url.pathname)) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** /login, carrying where to come back to and, when a session really ended, why. */
export function loginPath(from: string | null, ended: boolean): string {
  const params = new URLSearchParams();
  if (ended) params.set('reason', ENDED_REASON);
  const next = safeReturnPath(from);
  if (next && next !== '/') params.set('next', next);
  const query = params.toString();
  return query ? `/login?${query}` : '/login';
}

/**
 * For a learner call answered 401/403 while the page thought it was signed in: the session ended.
 * Pure on purpose: it is called while rendering, and a render can be thrown away (a reload that
 * is already under way, StrictMode). Forgetting the flag here let a reload racing a failed call
 * land on /login without the reason; the login page forgets it once the message is shown.
 */
export function sessionEndedLogin(): string {
  return loginPath(`${window.location.pathname}${window.location.search}${window.location.hash}`, true);
}
