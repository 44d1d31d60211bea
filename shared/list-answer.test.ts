import { describe, expect, it } from 'vitest';
import { countListItems, listMinimum, textAnswerDone } from './list-answer';

describe('list tasks', () => {
  it('reads the minimum of a list task, in words or digits', () => {
    expect(listMinimum('List at least five achievements from the last few years.')).toBe(5);
    expect(listMinimum('List at least 15 target companies, grouped as dream, good fit and practice.')).toBe(15);
    expect(listMinimum('Write at least three STAR stories from your achievements.')).toBe(3);
    expect(listMinimum('I asked at least two people what they think I do particularly well.')).toBeNull();
    expect(listMinimum('Write your one-line pitch.')).toBeNull();
  });

  it('counts one item per non-empty line, ignoring bullets and numbers', () => {
    expect(countListItems('- led the migration\n\n* cut costs\n3) hired two people\n  \n4. shipped')).toBe(4);
    expect(countListItems('')).toBe(0);
  });

  it('counts a text answer as done only when it is not blank and meets its minimum', () => {
    expect(textAnswerDone('', undefined)).toBe(false);
    expect(textAnswerDone('my pitch', undefined)).toBe(true);
    expect(textAnswerDone('a\nb\nc\nd', 5)).toBe(false);
    expect(textAnswerDone('a\nb\nc\nd\n- e', 5)).toBe(true);
  });
});
