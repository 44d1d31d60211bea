// Here rather than beside the outline: it reads the Lambda's content files, which the SPA may not
// import (docs/architecture.md#lint-and-format).
import { describe, expect, it } from 'vitest';
import week1 from '../../functions/program/content/week-1.json';
import week2 from '../../functions/program/content/week-2.json';
import week3 from '../../functions/program/content/week-3.json';
import week4 from '../../functions/program/content/week-4.json';
import { PROGRAM_OUTLINE } from '../../web/src/features/landing/program-outline';

describe('PROGRAM_OUTLINE', () => {
  it('matches the program content: every week and every module title, in order', () => {
    const fromContent = [week1, week2, week3, week4].map((week) => ({
      week: week.week_number,
      title: week.title,
      modules: [...week.modules].sort((a, b) => a.position - b.position).map((module) => module.title),
    }));
    expect(PROGRAM_OUTLINE).toEqual(fromContent);
  });
});
