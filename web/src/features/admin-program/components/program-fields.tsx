import type { ProgramContentJson } from '@shared/program-authoring';
import { PROGRAM_LIMITS } from '@shared/program-authoring';
import { updateProgram, updateWeek } from '../utils/draft-edit';

/** The program's title and description and each week's title and summary. */
export function ProgramFields({ content, onChange }: { content: ProgramContentJson; onChange: (next: ProgramContentJson) => void }) {
  return (
    <details className="pa-program-fields">
      <summary>Program and week titles</summary>
      <div className="pa-editor">
        <div className="field">
          <label htmlFor="pa-program-title">Program title</label>
          <input
            id="pa-program-title"
            value={content.title}
            maxLength={PROGRAM_LIMITS.titleChars}
            onChange={(e) => onChange(updateProgram(content, { title: e.target.value }))}
          />
        </div>
        <div className="field">
          <label htmlFor="pa-program-description">Program description</label>
          <textarea
            id="pa-program-description"
            rows={2}
            value={content.description}
            maxLength={PROGRAM_LIMITS.summaryChars}
            onChange={(e) => onChange(updateProgram(content, { description: e.target.value }))}
          />
        </div>
        {content.weeks.map((week, index) => (
          <fieldset key={week.week_number} className="pa-group">
            <legend>{`Week ${week.week_number}`}</legend>
            <div className="field">
              <label htmlFor={`pa-week-title-${index}`}>{`Week ${week.week_number} title`}</label>
              <input
                id={`pa-week-title-${index}`}
                value={week.title}
                maxLength={PROGRAM_LIMITS.titleChars}
                onChange={(e) => onChange(updateWeek(content, index, { title: e.target.value }))}
              />
            </div>
            <div className="field">
              <label htmlFor={`pa-week-summary-${index}`}>{`Week ${week.week_number} summary`}</label>
              <textarea
                id={`pa-week-summary-${index}`}
                rows={2}
                value={week.summary}
                maxLength={PROGRAM_LIMITS.summaryChars}
                onChange={(e) => onChange(updateWeek(content, index, { summary: e.target.value }))}
              />
            </div>
          </fieldset>
        ))}
      </div>
    </details>
  );
}
