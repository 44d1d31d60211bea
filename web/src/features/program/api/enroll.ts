import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EnrollResponse } from '@shared/program-types';
import { api } from '@/lib/api-client';
import { meQueryOptions } from '@/lib/auth';
import { dashboardQueryOptions } from './get-dashboard';
import { dashboardStateQueryOptions } from './get-dashboard-state';

/** `preview: true` is an admin's explicit choice to preview the program (never counted as a learner). */
export const enroll = (input: { preview?: boolean } | void) =>
  api.post<EnrollResponse>('/api/enroll', input?.preview ? { preview: true } : {});

/** Enrolling changes the dashboard and the session user's progress: refetch them. */
export function useEnroll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enroll,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: dashboardQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: dashboardStateQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
      ]),
  });
}
