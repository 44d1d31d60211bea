import type { ReactNode } from 'react';
import type { ContentModuleJson, ContentWeekJson } from '@shared/program-authoring';
import type { ModulePage } from '@shared/program-types';
import { blocksToText } from '../utils/draft-edit';

/** Renders a module page as the learner page does (given by web/src/app, which composes the features). */
export type RenderModulePage = (page: ModulePage) => ReactNode;

/** The module page as a learner sees it with nothing done yet, from the draft (inert: nothing saves). */
export function ModulePreview({
  module,
  week,
  programTitle,
  renderModule,
}: {
  module: ContentModuleJson;
  week: ContentWeekJson;
  programTitle: string;
  renderModule: RenderModulePage;
}) {
  const page: ModulePage = {
    module: {
      module_id: module.module_id,
      slug: module.slug,
      title: module.title,
      summary: module.summary,
      week_number: week.week_number,
      week_title: week.title,
      position: module.position,
      state: 'open',
      sections: module.sections.map((section) => ({ heading: section.heading, body: blocksToText(section.body) })),
      tasks: module.tasks.map((task) => ({
        ...task,
        done: false,
        ...(task.type === 'text' ? { answer: '' } : {}),
        updated_at: null,
      })),
    },
    next_module: null,
    percent_complete: 0,
    program_title: programTitle,
  };
  return (
    <section className="pa-preview" aria-labelledby="pa-preview-title">
      <h2 id="pa-preview-title">Preview</h2>
      <div className="pa-preview__frame" inert>
        {renderModule(page)}
      </div>
    </section>
  );
}
