import { describe, expect, it } from 'vitest';
import { countListItems, estimateMinutes, formatEstimate, listMinimum } from './time-estimate';

const task = (type: 'text' | 'checkbox') => ({ task_id: type, type, label: '', hint: '', required: true, done: false, updated_at: null });

describe('estimateMinutes', () => {
  it('adds reading time (200 words a minute) and task time, rounded up to 5', () => {
    const body = Array.from({ length: 1000 }, () => 'word').join(' ');
    expect(estimateMinutes({ summary: '', sections: [{ heading: 'H', body }], tasks: [task('text'), task('checkbox')] })).toBe(25);
    expect(estimateMinutes({ summary: '', sections: [], tasks: [] })).toBe(5);
  });

  it('formats minutes and hours', () => {
    expect(formatEstimate(25)).toBe('About 25 min');
    expect(formatEstimate(60)).toBe('About 1 h');
    expect(formatEstimate(75)).toBe('About 1 h 15 min');
  });
});

describe('list minimum', () => {
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
});
