/** A readable block of a module section. */
export type SectionBlock = { kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] };

const BULLET = /^\s*-\s+/;

/**
 * Splits a section's plain-text body (shared/program-types `ModuleSection.body`) into paragraphs
 * and bullet lists: blocks are separated by blank lines; lines starting with '- ' are list items.
 * A block mixing prose and bullets keeps its order (prose, list, prose…). Lines of prose within
 * one block are soft wraps and are joined with a space.
 */
export function parseSectionBody(body: string): SectionBlock[] {
  const blocks: SectionBlock[] = [];
  for (const chunk of body.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    let prose: string[] = [];
    let items: string[] = [];
    const flushProse = () => {
      if (prose.length) blocks.push({ kind: 'paragraph', text: prose.join(' ') });
      prose = [];
    };
    const flushItems = () => {
      if (items.length) blocks.push({ kind: 'list', items });
      items = [];
    };
    for (const raw of chunk.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      if (BULLET.test(raw)) {
        flushProse();
        items.push(line.replace(BULLET, ''));
      } else {
        flushItems();
        prose.push(line);
      }
    }
    flushProse();
    flushItems();
  }
  return blocks;
}
