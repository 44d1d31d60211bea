import type { ContentModuleJson, ContentTaskJson } from '@shared/program-authoring';
import { PROGRAM_LIMITS, TASK_KINDS } from '@shared/program-authoring';
import { Button } from '@/components/ui/button';
import { blocksToText, slugFromTitle, textToBlocks } from '../utils/draft-edit';

/**
 * A new module's address follows its title until the author sets one (published modules keep
 * theirs: learners' bookmarks and emailed links use it).
 */
function titleChange(module: ContentModuleJson, title: string): Partial<ContentModuleJson> {
  const untouched = module.slug === module.module_id || module.slug === slugFromTitle(module.title);
  return module.module_id.startsWith('new-module-') && untouched ? { title, slug: slugFromTitle(title) || module.module_id } : { title };
}

/** The fields of one module: title, summary, sections (Markdown-like text) and tasks. */
export function ModuleEditor({ module, onChange }: { module: ContentModuleJson; onChange: (change: Partial<ContentModuleJson>) => void }) {
  const setSection = (index: number, change: Partial<ContentModuleJson['sections'][number]>) =>
    onChange({ sections: module.sections.map((section, i) => (i === index ? { ...section, ...change } : section)) });
  const setTask = (index: number, change: Partial<ContentTaskJson>) =>
    onChange({ tasks: module.tasks.map((task, i) => (i === index ? { ...task, ...change } : task)) });
  const nextTaskId = () => {
    let n = module.tasks.length + 1;
    while (module.tasks.some((task) => task.task_id === `task-${n}`)) n += 1;
    return `task-${n}`;
  };

  return (
    <div className="pa-editor">
      <div className="field">
        <label htmlFor="pa-title">Title</label>
        <input
          id="pa-title"
          value={module.title}
          maxLength={PROGRAM_LIMITS.titleChars}
          onChange={(e) => onChange(titleChange(module, e.target.value))}
        />
      </div>
      <div className="field">
        <label htmlFor="pa-slug">Address</label>
        <input
          id="pa-slug"
          value={module.slug}
          maxLength={PROGRAM_LIMITS.idChars}
          aria-describedby="pa-slug-hint"
          onChange={(e) => onChange({ slug: e.target.value })}
        />
        <p id="pa-slug-hint" className="pa-hint">
          {`The module's page is /modules/${module.slug}: lower-case letters, digits and hyphens. Changing it breaks links learners saved.`}
        </p>
      </div>
      <div className="field">
        <label htmlFor="pa-summary">Summary</label>
        <textarea id="pa-summary" rows={3} value={module.summary} onChange={(e) => onChange({ summary: e.target.value })} />
      </div>

      <fieldset className="pa-group">
        <legend>Sections</legend>
        <p className="pa-hint">
          Paragraphs are separated by a blank line; lines starting with “- ” are bullet points. No HTML; links only http(s) or mailto.
        </p>
        {module.sections.map((section, index) => (
          <div key={index} className="pa-item">
            <div className="field">
              <label htmlFor={`pa-heading-${index}`}>{`Section ${index + 1} heading`}</label>
              <input id={`pa-heading-${index}`} value={section.heading} onChange={(e) => setSection(index, { heading: e.target.value })} />
            </div>
            <div className="field">
              <label htmlFor={`pa-body-${index}`}>{`Section ${index + 1} text`}</label>
              <textarea
                id={`pa-body-${index}`}
                rows={8}
                defaultValue={blocksToText(section.body)}
                onChange={(e) => setSection(index, { body: textToBlocks(e.target.value) })}
              />
            </div>
            <Button variant="link" onClick={() => onChange({ sections: module.sections.filter((_, i) => i !== index) })}>
              {`Remove section ${index + 1}`}
            </Button>
          </div>
        ))}
        <Button
          variant="secondary"
          onClick={() => onChange({ sections: [...module.sections, { heading: 'New section', body: ['Text.'] }] })}
        >
          Add section
        </Button>
      </fieldset>

      <fieldset className="pa-group">
        <legend>Tasks</legend>
        {module.tasks.map((task, index) => (
          <div key={task.task_id} className="pa-item">
            <div className="field">
              <label htmlFor={`pa-task-label-${index}`}>{`Task ${index + 1}`}</label>
              <input id={`pa-task-label-${index}`} value={task.label} onChange={(e) => setTask(index, { label: e.target.value })} />
            </div>
            <div className="field">
              <label htmlFor={`pa-task-hint-${index}`}>{`Task ${index + 1} hint`}</label>
              <input id={`pa-task-hint-${index}`} value={task.hint} onChange={(e) => setTask(index, { hint: e.target.value })} />
            </div>
            <div className="pa-row">
              <div className="field">
                <label htmlFor={`pa-task-kind-${index}`}>Kind</label>
                <select
                  id={`pa-task-kind-${index}`}
                  value={task.type}
                  onChange={(e) => setTask(index, { type: e.target.value as ContentTaskJson['type'], min_items: undefined })}
                >
                  {TASK_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {kind === 'checkbox' ? 'Checkbox' : 'Written answer'}
                    </option>
                  ))}
                </select>
              </div>
              {task.type === 'text' && (
                <div className="field">
                  <label htmlFor={`pa-task-min-${index}`}>List items (optional)</label>
                  <input
                    id={`pa-task-min-${index}`}
                    type="number"
                    min={2}
                    value={task.min_items ?? ''}
                    onChange={(e) => setTask(index, { min_items: e.target.value ? Number(e.target.value) : undefined })}
                  />
                </div>
              )}
              <label className="pa-check">
                <input type="checkbox" checked={task.required} onChange={(e) => setTask(index, { required: e.target.checked })} /> Required
              </label>
            </div>
            <Button variant="link" onClick={() => onChange({ tasks: module.tasks.filter((_, i) => i !== index) })}>
              {`Remove task ${index + 1}`}
            </Button>
          </div>
        ))}
        <Button
          variant="secondary"
          disabled={module.tasks.length >= PROGRAM_LIMITS.tasksPerModule}
          onClick={() =>
            onChange({
              tasks: [...module.tasks, { task_id: nextTaskId(), type: 'checkbox', label: 'New task.', hint: '', required: false }],
            })
          }
        >
          Add task
        </Button>
      </fieldset>
    </div>
  );
}
