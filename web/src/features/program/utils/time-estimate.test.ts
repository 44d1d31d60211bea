import { describe, expect, it } from 'vitest';
import { estimateMinutes, formatEstimate } from './time-estimate';

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
