import { describe, expect, it } from 'vitest';
import type { ProgramContentJson } from '@shared/program-authoring';
import { rawProgramContent } from '../content';
import { contentChanges } from '@shared/program-changes';
import { auditValues } from './content-changes';
import { authoringProblems } from './validate-content';

const copy = () => structuredClone(rawProgramContent) as ProgramContentJson;
const id = rawProgramContent.program_id;
const codes = (content: unknown) => authoringProblems(content, id).map((problem) => problem.code);

describe('authoringProblems', () => {
  it('accepts the bundled content, http(s) and mailto links', () => {
    expect(authoringProblems(copy(), id)).toEqual([]);
    const linked = copy();
    linked.weeks[0].modules[0].sections[0].body[0] =
      'See [the guide](https://example.com/a) or <mailto:help@example.com>, or http://x.org.';
    expect(authoringProblems(linked, id)).toEqual([]);
  });

  it('names each problem with its own code and where it is', () => {
    const cases: Array<[string, (content: ProgramContentJson) => void, string]> = [
      ['empty_field', (c) => (c.weeks[0].modules[0].title = '  '), 'weeks[0].modules[0].title'],
      ['field_too_long', (c) => (c.weeks[1].modules[0].summary = 'x'.repeat(601)), 'weeks[1].modules[0].summary'],
      [
        'unknown_task_kind',
        (c) => ((c.weeks[0].modules[1].tasks[0] as { type: string }).type = 'essay'),
        'weeks[0].modules[1].tasks[0].type',
      ],
      [
        'unsafe_link',
        (c) => (c.weeks[0].modules[0].sections[0].body[0] = 'Click [here](javascript:alert(1))'),
        'weeks[0].modules[0].sections[0].body[0]',
      ],
      [
        'unsafe_link',
        (c) => (c.weeks[0].modules[0].sections[0].heading = 'See [notes](/admin)'),
        'weeks[0].modules[0].sections[0].heading',
      ],
      ['unsafe_link', (c) => (c.weeks[0].modules[0].tasks[0].hint = 'ftp://files.example.com'), 'weeks[0].modules[0].tasks[0].hint'],
      [
        'raw_html',
        (c) => (c.weeks[0].modules[0].sections[0].body[0] = 'Hello <img src=x onerror=alert(1)>'),
        'weeks[0].modules[0].sections[0].body[0]',
      ],
      [
        'too_many_tasks',
        (c) => c.weeks[0].modules[0].tasks.push(...Array.from({ length: 8 }, () => c.weeks[0].modules[0].tasks[0])),
        'weeks[0].modules[0].tasks',
      ],
      ['too_many_modules', (c) => c.weeks[0].modules.push(...c.weeks[1].modules, ...c.weeks[2].modules), 'weeks[0].modules'],
      ['program_mismatch', (c) => (c.program_id = 'other-program'), 'program_id'],
      ['invalid_content', (c) => (c.weeks[0].modules[1].slug = c.weeks[0].modules[0].slug), 'content'],
      [
        'invalid_content',
        (c) => delete (c.weeks[0].modules[0] as Partial<ProgramContentJson['weeks'][0]['modules'][0]>).tasks,
        'weeks.0.modules.0.tasks',
      ],
    ];
    for (const [code, edit, path] of cases) {
      const content = copy();
      edit(content);
      const problems = authoringProblems(content, id);
      expect(problems[0], code).toMatchObject({ code, path });
      expect(problems[0].message.length).toBeGreaterThan(10);
    }
    expect(codes(null)).toEqual(['invalid_content']);
  });
});

describe('contentChanges', () => {
  it('lists per module what was added, removed or edited, and program-level fields', () => {
    const before = copy();
    const after = copy();
    after.title = 'New title';
    after.weeks[0].modules[0].title = 'Renamed';
    after.weeks[0].modules[0].tasks[0].required = !after.weeks[0].modules[0].tasks[0].required;
    const [removed] = after.weeks[1].modules.splice(0, 1);
    after.weeks[3].modules.push({ ...structuredClone(before.weeks[0].modules[1]), module_id: 'brand-new', slug: 'brand-new' });
    after.weeks.forEach((week) => week.modules.forEach((module, index) => (module.position = index + 1)));
    const changes = contentChanges(before, after);
    expect(changes.program).toEqual(['title']);
    expect(changes.modules).toEqual(
      expect.arrayContaining([
        { module_id: before.weeks[0].modules[0].module_id, title: 'Renamed', change: 'edited', fields: ['title', 'tasks'] },
        { module_id: removed.module_id, title: removed.title, change: 'removed', fields: [] },
        expect.objectContaining({ module_id: 'brand-new', change: 'added' }),
        // the week-2 module after the removed one moved up
        expect.objectContaining({ module_id: before.weeks[1].modules[1].module_id, fields: ['placement'] }),
      ]),
    );
    const values = auditValues(before, after, changes);
    expect(values.old[`${before.weeks[0].modules[0].module_id}.title`]).toBe(before.weeks[0].modules[0].title);
    expect(values.new[`${before.weeks[0].modules[0].module_id}.title`]).toBe('Renamed');
    expect(values.new['program title']).toBe('New title');
    expect(values.new[removed.module_id]).toBeNull();
    expect(contentChanges(before, copy())).toEqual({ program: [], modules: [] });
  });
});
