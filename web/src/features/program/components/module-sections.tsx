import type { ModuleSection } from '@shared/program-types';
import { parseSectionBody } from '../utils/section-body';
import { InlineText } from './inline-text';

/** The module's reading material: text and safe links only, so nothing from content is rendered as HTML. */
export function ModuleSections({ sections }: { sections: ModuleSection[] }) {
  if (sections.length === 0) return null;
  return (
    <div className="pg-sections">
      {sections.map((section, index) => (
        <section key={`${index}-${section.heading}`} className="pg-section" aria-labelledby={`section-${index}`}>
          <h2 id={`section-${index}`}>{section.heading}</h2>
          {parseSectionBody(section.body).map((block, b) =>
            block.kind === 'paragraph' ? (
              <p key={b}>
                <InlineText text={block.text} />
              </p>
            ) : (
              <ul key={b}>
                {block.items.map((item, i) => (
                  <li key={i}>
                    <InlineText text={item} />
                  </li>
                ))}
              </ul>
            ),
          )}
        </section>
      ))}
    </div>
  );
}
