import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LearnerTask, ModulePage, TaskSave, TaskSaveRequest } from '@shared/program-types';
import { api } from '@/lib/api-client';
import { meQueryOptions } from '@/lib/auth';
import { dashboardQueryOptions } from './get-dashboard';
import { dashboardStateQueryOptions } from './get-dashboard-state';
import { moduleQueryOptions } from './get-module';

export interface SaveTaskInput extends TaskSaveRequest {
  taskId: string;
}

export const saveTask = (slug: string, { taskId, ...body }: SaveTaskInput) =>
  api.put<TaskSave>(`/api/modules/${encodeURIComponent(slug)}/tasks/${encodeURIComponent(taskId)}`, body);

/** Replaces one task's saved work in a cached module page. */
function withTask(page: ModulePage, taskId: string, patch: Partial<LearnerTask>): ModulePage {
  return {
    ...page,
    module: { ...page.module, tasks: page.module.tasks.map((task) => (task.task_id === taskId ? { ...task, ...patch } : task)) },
  };
}

/**
 * Saves a task. The cached module shows the change at once; a failure restores only that task
 * (not a whole-page snapshot, which would undo other tasks saved meanwhile).
 */
export function useSaveTask(slug: string) {
  const queryClient = useQueryClient();
  const moduleKey = moduleQueryOptions(slug).queryKey;
  return useMutation({
    mutationFn: (input: SaveTaskInput) => saveTask(slug, input),
    onMutate: async ({ taskId, ...change }) => {
      await queryClient.cancelQueries({ queryKey: moduleKey });
      const page = queryClient.getQueryData(moduleKey);
      const task = page?.module.tasks.find((item) => item.task_id === taskId);
      const previous = task ? { done: task.done, answer: task.answer } : undefined;
      if (page) queryClient.setQueryData(moduleKey, withTask(page, taskId, change));
      return { previous };
    },
    onError: (_error, { taskId }, context) => {
      const page = queryClient.getQueryData(moduleKey);
      if (page && context?.previous) queryClient.setQueryData(moduleKey, withTask(page, taskId, context.previous));
    },
    onSuccess: (result, { taskId }) => {
      const page = queryClient.getQueryData(moduleKey);
      if (!page) return;
      const updated = withTask(page, taskId, result.task);
      queryClient.setQueryData(moduleKey, {
        ...updated,
        module: { ...updated.module, state: result.module_state },
        percent_complete: result.percent_complete,
        next_module: result.next_module,
      });
    },
    // Not returned: 'Saved' should not wait for the refetches that follow.
    onSettled: (result) =>
      void Promise.all([
        queryClient.invalidateQueries({ queryKey: moduleKey }),
        // Completing a module unlocks the next one: a cached "locked" answer for it is stale.
        result?.next_module ? queryClient.invalidateQueries({ queryKey: moduleQueryOptions(result.next_module.slug).queryKey }) : undefined,
        queryClient.invalidateQueries({ queryKey: dashboardQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: dashboardStateQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
      ]),
  });
}
