import { describe, expect, it } from 'vitest';
import type { ContentModuleJson, ProgramContentJson } from '@shared/program-authoring';
import { addModule, moveModule, removeModule, updateModule, updateProgram } from './draft-edit';
import { applyMineOnTheirs } from './merge-edits';

const module = (id: string, position: number): ContentModuleJson => ({
  module_id: id,
  slug: id,
  position,
  title: `Title ${id}`,
  summary: `Summary ${id}`,
  sections: [{ heading: 'Intro', body: [`Text of ${id}`] }],
  tasks: [{ task_id: 't1', type: 'checkbox', label: 'Done', hint: '', required: true }],
});
const base = (): ProgramContentJson => ({
  program_id: 'p',
  title: 'P',
  description: 'D',
  weeks: [
    { week_number: 1, title: 'W1', summary: 'S1', modules: [module('a', 1), module('b', 2)] },
    { week_number: 2, title: 'W2', summary: 'S2', modules: [module('c', 1)] },
  ],
});
const layout = (c: ProgramContentJson) => c.weeks.map((week) => week.modules.map((m) => `${m.module_id}${m.position}`).join(' '));
const find = (c: ProgramContentJson, id: string) => c.weeks.flatMap((week) => week.modules).find((m) => m.module_id === id);

describe('applying my edits on top of theirs', () => {
  it('keeps their edit of one module and mine of another, field by field', () => {
    const mine = updateModule(base(), { week: 0, index: 1 }, { sections: [{ heading: 'Intro', body: ['My long reading'] }] });
    const theirs = updateModule(base(), { week: 0, index: 1 }, { title: 'Their title' });
    const merged = applyMineOnTheirs(base(), mine, updateModule(theirs, { week: 1, index: 0 }, { summary: 'Their summary' }));
    expect(find(merged, 'b')).toMatchObject({ title: 'Their title', sections: [{ heading: 'Intro', body: ['My long reading'] }] });
    expect(find(merged, 'c')?.summary).toBe('Their summary');
    expect(layout(merged)).toEqual(layout(base()));
  });

  it('lets mine win where both changed the same field, and keeps their other program fields', () => {
    const mine = updateProgram(base(), { title: 'My program' });
    const theirs = updateProgram(base(), { title: 'Their program', description: 'Their description' });
    const merged = applyMineOnTheirs(base(), mine, theirs);
    expect([merged.title, merged.description]).toEqual(['My program', 'Their description']);
  });

  it('replays my removals, moves and additions; a module both added keeps both under different ids', () => {
    let mine = removeModule(base(), { week: 0, index: 0 });
    mine = moveModule(mine, { week: 1, index: 0 }, -1).content;
    mine = addModule(mine, 1).content;
    const theirs = addModule(base(), 0).content;
    const merged = applyMineOnTheirs(base(), mine, theirs);
    expect(layout(merged)).toEqual(['b1 c2 new-module-13', 'new-module-1-21']);
    expect(find(merged, 'new-module-1-2')?.slug).toBe('new-module-1-2');
  });

  it('brings back a module they removed that I edited', () => {
    const mine = updateModule(base(), { week: 1, index: 0 }, { summary: 'My summary' });
    const theirs = removeModule(base(), { week: 1, index: 0 });
    const merged = applyMineOnTheirs(base(), mine, theirs);
    expect(find(merged, 'c')?.summary).toBe('My summary');
    expect(layout(merged)).toEqual(['a1 b2', 'c1']);
  });
});
