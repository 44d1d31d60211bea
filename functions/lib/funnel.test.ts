import { describe, expect, it } from 'vitest';
import { countedOf, funnelDeltas, funnelOf } from './funnel';

describe('the module funnel deltas', () => {
  it('reads completed and open modules from derived states', () => {
    expect(
      funnelOf(
        new Map([
          ['a', 'completed'],
          ['b', 'open'],
          ['c', 'locked'],
        ]),
      ),
    ).toEqual({ funnel_completed: ['a'], funnel_in_progress: ['b'] });
  });

  it('completing a module: completed +1, its in progress −1, the next module in progress +1', () => {
    const before = { funnel_completed: [], funnel_in_progress: ['a'] };
    const after = { funnel_completed: ['a'], funnel_in_progress: ['b'] };
    expect(funnelDeltas(before, after)).toEqual({ 'funnel_completed:a': 1, 'funnel_in_progress:a': -1, 'funnel_in_progress:b': 1 });
  });

  it('writes nothing for an unchanged entry, and takes everything out when the enrollment goes', () => {
    const counted = { funnel_completed: ['a'], funnel_in_progress: ['b'] };
    expect(funnelDeltas(counted, counted)).toEqual({});
    expect(funnelDeltas(counted, undefined)).toEqual({ 'funnel_completed:a': -1, 'funnel_in_progress:b': -1 });
  });

  it('counts an enrollment written before the funnel (no lists) whole on its first transition', () => {
    expect(funnelDeltas(countedOf({}), { funnel_completed: ['a', 'b'], funnel_in_progress: ['c'] })).toEqual({
      'funnel_completed:a': 1,
      'funnel_completed:b': 1,
      'funnel_in_progress:c': 1,
    });
  });
});
