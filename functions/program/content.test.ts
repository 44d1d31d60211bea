import { describe, expect, it } from 'vitest';
import { buildProgram, contentProblems, program, rawProgramContent, sectionText, type ProgramContent } from './content';

const copy = (): ProgramContent => structuredClone(rawProgramContent) as ProgramContent;

describe('program content', () => {
  const content = program();

  it('is valid: weeks 1..4, unique slugs and module ids, 2-4 tasks with at least one required, contiguous positions', () => {
    expect(contentProblems(copy())).toEqual([]);
    expect(content.weeks.map((week) => week.week_number)).toEqual([1, 2, 3, 4]);
    expect(new Set(content.modules.map((m) => m.slug)).size).toBe(content.modules.length);
    expect(new Set(content.modules.map((m) => m.module_id)).size).toBe(content.modules.length);
    for (const week of content.weeks) {
      expect(week.modules.length).toBeGreaterThanOrEqual(2);
      expect(week.modules.length).toBeLessThanOrEqual(3);
      expect(week.modules.map((m) => m.position)).toEqual(week.modules.map((_, index) => index + 1));
    }
    for (const module of content.modules) {
      expect(module.tasks.length, module.slug).toBeGreaterThanOrEqual(2);
      expect(module.tasks.length, module.slug).toBeLessThanOrEqual(4);
      expect(
        module.tasks.some((task) => task.required),
        module.slug,
      ).toBe(true);
      expect(module.sections.length, module.slug).toBeGreaterThanOrEqual(2);
    }
  });

  it('is substantial: each module has several sections of real guidance', () => {
    for (const module of content.modules) {
      const words = module.sections
        .map(sectionText)
        .map((s) => s.body)
        .join(' ')
        .split(/\s+/).length;
      expect(words, module.slug).toBeGreaterThan(200);
    }
  });

  it('orders modules week by week and finds them by slug and id', () => {
    expect(content.modules.map((m) => m.order)).toEqual(content.modules.map((_, index) => index));
    expect(content.modules[0].week_number).toBe(1);
    expect(content.modules.at(-1)!.week_number).toBe(4);
    const second = content.modules[1];
    expect(content.bySlug.get(second.slug)).toBe(second);
    expect(content.byId.get(second.module_id)).toBe(second);
    expect(content.hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('reports duplicate slugs, duplicate ids, missing required tasks, task counts, positions and weeks', () => {
    const dupSlug = copy();
    dupSlug.weeks[1].modules[0].slug = dupSlug.weeks[0].modules[0].slug;
    expect(contentProblems(dupSlug).join()).toMatch(/duplicate slug/);

    const dupId = copy();
    dupId.weeks[2].modules[1].module_id = dupId.weeks[0].modules[0].module_id;
    expect(contentProblems(dupId).join()).toMatch(/duplicate module id/);

    const noRequired = copy();
    for (const task of noRequired.weeks[0].modules[0].tasks) task.required = false;
    expect(contentProblems(noRequired).join()).toMatch(/at least one required task/);

    const noTask = copy();
    noTask.weeks[0].modules[0].tasks.splice(0);
    expect(contentProblems(noTask).join()).toMatch(/1 to 8 tasks/);

    const crowded = copy();
    crowded.weeks[0].modules.push(...crowded.weeks[1].modules, ...crowded.weeks[2].modules);
    expect(contentProblems(crowded).join()).toMatch(/week 1 must have 1 to 6 modules/);

    const gap = copy();
    gap.weeks[1].modules[1].position = 5;
    expect(contentProblems(gap).join()).toMatch(/position 5, expected 2/);

    const weeks = copy();
    weeks.weeks[3].week_number = 5;
    expect(contentProblems(weeks).join()).toMatch(/weeks must be 1..4/);

    expect(() => buildProgram(dupSlug)).toThrow(/invalid program content/);
  });

  it('rejects malformed content (schema)', () => {
    const bad = copy() as unknown as { weeks: Array<{ modules: Array<{ tasks: Array<{ type: string }> }> }> };
    bad.weeks[0].modules[0].tasks[0].type = 'essay';
    expect(() => buildProgram(bad)).toThrow();
  });

  it('renders section bodies as plain text paragraphs with "- " bullet lines', () => {
    expect(sectionText({ heading: 'H', body: ['First.', ['a', 'b'], 'Last.'] })).toEqual({
      heading: 'H',
      body: 'First.\n\n- a\n- b\n\nLast.',
    });
  });
});
