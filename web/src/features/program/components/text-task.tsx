import { useRef, useState } from 'react';
import { TASK_ANSWER_MAX_LENGTH, type LearnerTask, type TaskSave } from '@shared/program-types';
import { useUser } from '@/lib/auth';
import { forgetDraft, keepDraft, readDraft } from '@/lib/task-drafts';
import { useSaveTask } from '../api/save-task';
import { countListItems, listMinimum } from '@shared/list-answer';

/** The text kept in this browser from an unconfirmed save, when it differs from the saved answer. */
function restoredDraft(userId: string | undefined, slug: string, task: LearnerTask): string | null {
  if (!userId) return null;
  const kept = readDraft(userId, slug, task.task_id);
  if (kept === null || kept === (task.answer ?? '')) {
    forgetDraft(userId, slug, task.task_id);
    return null;
  }
  return kept;
}

/**
 * A written-answer task. The draft lives here, not in the query cache, so a failed save or a
 * background refetch never throws away what the learner typed; a copy stays in the browser until
 * the server confirms the save, so an ended session or a reload does not lose it either. Saves
 * on blur and on Save.
 */
export function TextTask({ slug, task, onSaved }: { slug: string; task: LearnerTask; onSaved: (result: TaskSave) => void }) {
  const save = useSaveTask(slug);
  const userId = useUser().data?.id;
  const [restored] = useState(() => restoredDraft(userId, slug, task));
  const [draft, setDraft] = useState(restored ?? task.answer ?? '');
  const [saved, setSaved] = useState(task.answer ?? '');
  // The text of the save in flight: blur followed by a click on Save must not send it twice.
  const inFlight = useRef<string | null>(null);
  const inputId = `task-${task.task_id}`;
  const dirty = draft !== saved;
  // A list task ("at least five …") says how far the list is; a hint, never a block on saving.
  const minimum = task.min_items ?? listMinimum(task.label);
  const listed = countListItems(draft);

  const submit = (force = false) => {
    if (inFlight.current === draft) return;
    if (!dirty && !force) return;
    const answer = draft;
    inFlight.current = answer;
    save.mutate(
      { taskId: task.task_id, answer },
      {
        onSuccess: (result) => {
          setSaved(result.task.answer ?? answer);
          // Text typed while the save was under way is still unconfirmed: its copy stays.
          if (userId && readDraft(userId, slug, task.task_id) === answer) forgetDraft(userId, slug, task.task_id);
          onSaved(result);
        },
        onSettled: () => {
          inFlight.current = null;
        },
      },
    );
  };

  let status = '';
  if (save.isPending) status = 'Saving…';
  else if (save.isError) status = '';
  else if (dirty) status = 'Unsaved changes';
  else if (save.isSuccess) status = 'Saved';

  return (
    <li className={`pg-task ${task.done ? 'pg-task--done' : ''}`}>
      <label htmlFor={inputId} className="pg-task__title">
        {task.label}
        {task.required && <span className="pg-required">Required</span>}
        {task.done && <span className="pg-badge pg-badge--completed">Done</span>}
      </label>
      {task.hint && (
        <p id={`${inputId}-desc`} className="pg-task__desc">
          {task.hint}
        </p>
      )}
      <textarea
        id={inputId}
        className="pg-textarea"
        rows={4}
        maxLength={TASK_ANSWER_MAX_LENGTH}
        aria-describedby={task.hint ? `${inputId}-desc` : undefined}
        value={draft}
        onChange={(event) => {
          setDraft(event.target.value);
          if (userId) keepDraft(userId, slug, task.task_id, event.target.value);
        }}
        onBlur={() => submit()}
      />
      {restored !== null && dirty && (
        <p className="pg-task__desc" role="status">
          Your unsaved answer was kept in this browser. Save it to keep it in your program.
        </p>
      )}
      {minimum !== null && (
        <p className="pg-task__desc" aria-live="polite">
          {listed >= minimum
            ? `${listed} listed: that meets the ${minimum} this task asks for.`
            : `${listed} of ${minimum} listed, one per line. Add ${minimum - listed} more to meet what this task asks for.`}
        </p>
      )}
      <div className="pg-task__actions">
        <button type="button" className="pg-button pg-button--secondary" onClick={() => submit(true)}>
          Save
        </button>
        <span className="pg-task__status" aria-live="polite">
          {status}
        </span>
      </div>
      {save.isError && (
        <div className="pg-error pg-error--row" role="alert">
          <span>Couldn’t save your answer. Your text is kept here.</span>
          <button type="button" className="pg-button pg-button--small" onClick={() => submit(true)}>
            Retry
          </button>
        </div>
      )}
    </li>
  );
}
