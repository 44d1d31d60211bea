import { describe, expect, it } from 'vitest';
import { buildProgram, program, rawProgramContent, type ProgramContent } from './content';
import {
  deriveProgress,
  nextModule,
  percentComplete,
  requiredBefore,
  requiredTasksDone,
  weekCompleted,
  type StoredProgress,
} from './progress';

const content = program();
const ids = content.modules.map((m) => m.module_id);
const stored = (entries: Array<[string, StoredProgress['status']]>) =>
  new Map(entries.map(([module_id, status]) => [module_id, { module_id, status }]));

describe('percentComplete', () => {
  it('is completed ÷ total × 100 rounded to one decimal', () => {
    expect(percentComplete(0, 10)).toBe(0);
    expect(percentComplete(1, 3)).toBe(33.3);
    expect(percentComplete(2, 3)).toBe(66.7);
    expect(percentComplete(1, 7)).toBe(14.3);
    expect(percentComplete(10, 10)).toBe(100);
  });
  it('is clamped to 0-100 and safe with no modules', () => {
    expect(percentComplete(12, 10)).toBe(100);
    expect(percentComplete(-1, 10)).toBe(0);
    expect(percentComplete(0, 0)).toBe(0);
  });
});

describe('deriveProgress', () => {
  /** The bundled program with `edit` applied (as an administrator's published version). */
  const edited = (edit: (content: ProgramContent) => void) => {
    const raw = structuredClone(rawProgramContent) as ProgramContent;
    edit(raw);
    raw.weeks.forEach((week) => week.modules.forEach((module, index) => (module.position = index + 1)));
    return buildProgram(raw, 2);
  };
  const extra = (id: string): ProgramContent['weeks'][number]['modules'][number] => ({
    ...(structuredClone(rawProgramContent.weeks[0].modules[0]) as ProgramContent['weeks'][number]['modules'][number]),
    module_id: id,
    slug: id,
  });

  it('opens a module added to a week the learner has completed (the module before it is completed)', () => {
    const week1 = content.weeks[0].modules.map((m) => m.module_id);
    const progress = stored([...week1.map((id) => [id, 'completed'] as [string, StoredProgress['status']]), [ids[week1.length], 'open']]);
    const added = edited((raw) => raw.weeks[0].modules.push(extra('new-week-1')));
    const derived = deriveProgress(added, progress);
    expect(derived.states.get('new-week-1')).toBe('open');
    expect(derived.open?.module_id).toBe('new-week-1');
    expect(derived.states.get(ids[week1.length])).toBe('open');
    expect(derived.percent).toBe(percentComplete(week1.length, ids.length + 1));

    // two added in a row: the second waits for the first
    const two = edited((raw) => raw.weeks[0].modules.push(extra('new-a'), extra('new-b')));
    expect(deriveProgress(two, progress).states.get('new-b')).toBe('locked');
    // added after the open module: reached in order, locked until then
    const later = edited((raw) => raw.weeks[3].modules.push(extra('new-last')));
    expect(deriveProgress(later, progress).states.get('new-last')).toBe('locked');
  });

  it('moves on to the first module not completed when the open module is removed; a moved open module stays open', () => {
    const progress = stored([
      [ids[0], 'completed'],
      [ids[1], 'open'],
    ]);
    const removed = edited((raw) => raw.weeks[0].modules.splice(1, 1));
    const derived = deriveProgress(removed, progress);
    expect(derived.open?.module_id).toBe(ids[2]);
    expect(derived.total).toBe(ids.length - 1);
    expect(derived.percent).toBe(percentComplete(1, ids.length - 1));

    const moved = edited((raw) => raw.weeks[3].modules.push(...raw.weeks[0].modules.splice(1, 1)));
    const after = deriveProgress(moved, progress);
    expect(after.states.get(ids[1])).toBe('open');
    // what now follows the completed first module opens by the sequential rule
    expect(after.open?.module_id).toBe(ids[2]);
  });

  it('starts with the first module open and the rest locked', () => {
    const derived = deriveProgress(content, stored([[ids[0], 'open']]));
    expect(derived.open?.module_id).toBe(ids[0]);
    expect([...derived.states.values()].filter((s) => s === 'locked')).toHaveLength(ids.length - 1);
    expect(derived.percent).toBe(0);
  });

  it('counts completed modules and finds the open one across weeks', () => {
    const week1 = content.modules.filter((m) => m.week_number === 1).map((m) => m.module_id);
    const derived = deriveProgress(
      content,
      stored([...week1.map((id) => [id, 'completed'] as [string, 'completed']), [ids[week1.length], 'open']]),
    );
    expect(derived.completed).toBe(week1.length);
    expect(derived.open?.week_number).toBe(2);
    expect(weekCompleted(content, derived.states, 1)).toBe(true);
    expect(weekCompleted(content, derived.states, 2)).toBe(false);
  });

  it('keeps progress when the content changes: a module without progress after a finished program opens', () => {
    // All but the last module completed and nothing open (e.g. the last module was added later).
    const derived = deriveProgress(content, stored(ids.slice(0, -1).map((id) => [id, 'completed'])));
    expect(derived.open?.module_id).toBe(ids.at(-1));
    expect(derived.completed).toBe(ids.length - 1);
  });

  it('has no open module and 100% when everything is completed', () => {
    const derived = deriveProgress(content, stored(ids.map((id) => [id, 'completed'])));
    expect(derived.open).toBeNull();
    expect(derived.percent).toBe(100);
  });

  it('ignores progress of modules that left the content', () => {
    const derived = deriveProgress(
      content,
      stored([
        ['retired-module', 'completed'],
        [ids[0], 'open'],
      ]),
    );
    expect(derived.completed).toBe(0);
  });
});

describe('module order helpers', () => {
  it('names the next module across a week boundary and none after the last', () => {
    const lastOfWeek1 = content.modules.filter((m) => m.week_number === 1).at(-1)!;
    expect(nextModule(content, lastOfWeek1)?.week_number).toBe(2);
    expect(nextModule(content, content.modules.at(-1)!)).toBeNull();
  });

  it('names the open module as the one to finish before a locked one', () => {
    const derived = deriveProgress(
      content,
      stored([
        [ids[0], 'completed'],
        [ids[1], 'open'],
      ]),
    );
    expect(requiredBefore(content, derived, content.modules[4])?.module_id).toBe(ids[1]);
  });

  it('needs every required task, and only those', () => {
    const module = content.modules[0];
    const required = module.tasks.filter((t) => t.required).map((t) => t.task_id);
    expect(requiredTasksDone(module, (id) => required.includes(id))).toBe(true);
    expect(requiredTasksDone(module, (id) => id === required[0] && required.length === 1)).toBe(required.length === 1);
    expect(requiredTasksDone(module, () => false)).toBe(false);
  });
});
