import { ApiError } from '@/lib/api-client';
import { paths } from '@/config/paths';
import { sessionEndedLogin } from '@/lib/session-ended';

/**
 * Where a failed learner call sends the learner (docs/product.md#4-states-and-transitions): 401/403 to /login, 404 to /enroll.
 * `null` means stay and show an error.
 */
export function learnerRedirect(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  // The page was signed in when it asked: the session ended (expired, or ended elsewhere).
  if (error.status === 401 || error.status === 403) return sessionEndedLogin();
  if (error.status === 404) return paths.enroll;
  return null;
}

/**
 * A server-provided message worth showing, else the fallback. The API answers with `error`
 * codes (snake_case, meant for code) and sometimes a human `message`; a bare code would read
 * as gibberish, so only text that looks like a sentence is shown.
 */
export function serverMessage(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  const { message, error: code } = error.body;
  if (typeof message === 'string' && message.trim()) return message;
  if (typeof code === 'string' && /\s/.test(code.trim())) return code;
  return fallback;
}
