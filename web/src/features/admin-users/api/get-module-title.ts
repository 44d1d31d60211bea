import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AdminSummary } from '@shared/admin-types';

/**
 * A published module's title, from the admin summary's funnel (the rows the stalled links come
 * from, so the two always name the same modules). The same query key as the dashboard's: coming
 * from there, the answer is already cached; here it is not refreshed on a timer.
 */
const summaryOnce = () => queryOptions({ queryKey: ['admin', 'summary'], queryFn: () => api.get<AdminSummary>('/api/admin/summary') });

export function useModuleTitle(moduleId: string): string | undefined {
  const summary = useQuery({ ...summaryOnce(), enabled: Boolean(moduleId) });
  return summary.data?.funnel.find((module) => module.module_id === moduleId)?.title;
}
