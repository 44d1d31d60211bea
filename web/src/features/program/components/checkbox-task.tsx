import type { LearnerTask, TaskSave } from '@shared/program-types';
import { useSaveTask } from '../api/save-task';

/** A tick-off task: saves on every change; the box shows the change at once and reverts on failure. */
export function CheckboxTask({ slug, task, onSaved }: { slug: string; task: LearnerTask; onSaved: (result: TaskSave) => void }) {
  const save = useSaveTask(slug);
  const inputId = `task-${task.task_id}`;
  const describedBy = task.hint ? `${inputId}-desc` : undefined;
  return (
    <li className={`pg-task ${task.done ? 'pg-task--done' : ''}`}>
      <div className="pg-task__check">
        <input
          id={inputId}
          type="checkbox"
          checked={task.done}
          aria-describedby={describedBy}
          onChange={(event) => save.mutate({ taskId: task.task_id, done: event.target.checked }, { onSuccess: onSaved })}
        />
        <label htmlFor={inputId} className="pg-task__title">
          {task.label}
          {task.required && <span className="pg-required">Required</span>}
        </label>
      </div>
      {task.hint && (
        <p id={describedBy} className="pg-task__desc">
          {task.hint}
        </p>
      )}
      <p className="pg-task__status" aria-live="polite">
        {save.isPending ? 'Saving…' : save.isError ? '' : save.isSuccess ? 'Saved' : ''}
      </p>
      {save.isError && (
        <p className="pg-error" role="alert">
          Couldn’t save this task. Please try again.
        </p>
      )}
    </li>
  );
}
