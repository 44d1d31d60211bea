import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { meQueryOptions } from './auth';

const meKey = JSON.stringify(meQueryOptions().queryKey);

/**
 * Forgets every cached server answer except the profile: at sign-out so the next person never
 * sees the previous one's data, and at sign-in so an answer that failed while the session was
 * over (a module's 401) is not shown again and sends the person back to /login a second time.
 */
export function forgetServerAnswers(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => JSON.stringify(query.queryKey) !== meKey });
}

/** The API's answer to any call that needs a session when there is none (docs/api.md). */
export const isSessionGone = (error: unknown) => error instanceof ApiError && error.status === 401 && error.code === 'unauthorized';

/**
 * The one handler for a signed-in page whose session ended: any query or save answered 401
 * `unauthorized` re-reads the profile, and the gates (session and admin) then send the person to
 * /login with the reason and the way back, instead of each section reporting its own failure.
 * Re-reading, rather than trusting the one answer, keeps a session that is still valid on the page.
 */
export function onSessionGone(queryClient: QueryClient) {
  return (error: unknown) => {
    if (!isSessionGone(error)) return;
    if (!queryClient.getQueryData(meQueryOptions().queryKey)) return;
    void queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey });
  };
}
