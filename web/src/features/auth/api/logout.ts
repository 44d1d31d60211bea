import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { meQueryOptions } from '@/lib/auth';
import { forgetServerAnswers } from '@/lib/session-answers';
import { clearSignedIn } from '@/lib/session-ended';
import { forgetAllDrafts } from '@/lib/task-drafts';

export const logout = () => api.post<Record<string, unknown>>('/api/auth/logout');

/**
 * Signs out, then forgets every cached server answer so the next person at this browser never
 * sees the previous user's data; the profile becomes "signed out" at once, and is re-read to
 * confirm (if the call failed the cookie may still be valid, and the header will say so).
 */
export const useLogout = () => {
  const queryClient = useQueryClient();
  const meKey = meQueryOptions().queryKey;
  const forget = () => {
    // Signing out on purpose is not a session that "ended".
    clearSignedIn();
    // Drafts kept for an ended session are not for whoever uses this browser next.
    forgetAllDrafts();
    forgetServerAnswers(queryClient);
    queryClient.setQueryData(meKey, null);
    // Not awaited: the caller's own onSettled (navigation) should not wait for the re-read.
    void queryClient.invalidateQueries({ queryKey: meKey });
  };
  return useMutation({ mutationFn: logout, onSettled: forget });
};
