import { describe, expect, it } from 'vitest';
import type { ContentModuleJson, ProgramContentJson } from '@shared/program-authoring';
import { addModule, blocksToText, moveModule, removeModule, slugFromTitle, textToBlocks, updateProgram, updateWeek } from './draft-edit';

const module = (id: string, position: number) => ({ module_id: id, slug: id, position, title: id }) as ContentModuleJson;
const content = (): ProgramContentJson => ({
  program_id: 'p',
  title: 'P',
  description: 'D',
  weeks: [
    { week_number: 1, title: 'W1', summary: 'S', modules: [module('a', 1), module('b', 2)] },
    { week_number: 2, title: 'W2', summary: 'S', modules: [module('c', 1)] },
  ],
});
const layout = (c: ProgramContentJson) => c.weeks.map((week) => week.modules.map((m) => `${m.module_id}${m.position}`).join(' '));

describe('draft edits', () => {
  it('edits the program and a week without touching their modules', () => {
    const edited = updateWeek(updateProgram(content(), { title: 'New program' }), 1, { title: 'Interviews', summary: 'Practise.' });
    expect([edited.title, edited.description]).toEqual(['New program', 'D']);
    expect(edited.weeks.map((week) => [week.week_number, week.title, week.summary])).toEqual([
      [1, 'W1', 'S'],
      [2, 'Interviews', 'Practise.'],
    ]);
    expect(layout(edited)).toEqual(layout(content()));
  });

  it('makes an address from a title', () => {
    expect(slugFromTitle('  Écrire un CV — vite!  ')).toBe('ecrire-un-cv-vite');
    expect(slugFromTitle('!!!')).toBe('');
  });

  it('moves a module within a week and across the week boundary, renumbering positions', () => {
    expect(layout(moveModule(content(), { week: 0, index: 0 }, 1).content)).toEqual(['b1 a2', 'c1']);
    const down = moveModule(content(), { week: 0, index: 1 }, 1);
    expect(layout(down.content)).toEqual(['a1', 'b1 c2']);
    expect(down.at).toEqual({ week: 1, index: 0 });
    expect(layout(moveModule(content(), { week: 1, index: 0 }, -1).content)).toEqual(['a1 b2 c3', '']);
    // nothing before the first module
    expect(layout(moveModule(content(), { week: 0, index: 0 }, -1).content)).toEqual(['a1 b2', 'c1']);
  });

  it('removes and adds modules with unique ids', () => {
    expect(layout(removeModule(content(), { week: 0, index: 0 }))).toEqual(['b1', 'c1']);
    const added = addModule(content(), 1);
    expect(layout(added.content)).toEqual(['a1 b2', 'c1 new-module-12']);
    expect(added.at).toEqual({ week: 1, index: 1 });
  });

  it('turns section text into paragraphs and bullet lists and back', () => {
    const blocks = textToBlocks('First line\nsame paragraph.\n\n- one\n- two\n\nLast.');
    expect(blocks).toEqual(['First line same paragraph.', ['one', 'two'], 'Last.']);
    expect(blocksToText(blocks)).toBe('First line same paragraph.\n\n- one\n- two\n\nLast.');
  });
});
