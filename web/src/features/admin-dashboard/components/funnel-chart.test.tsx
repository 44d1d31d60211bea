import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import FunnelChart, { FUNNEL_COLORS, moduleLabel } from './funnel-chart';

describe('FunnelChart', () => {
  const modules = [
    { module_id: 'm1', slug: 'welcome', title: 'Welcome', week_number: 1, completed: 3, in_progress: 1 },
    { module_id: 'm2', slug: 'cv', title: 'A very long module title that does not fit', week_number: 2, completed: 0, in_progress: 2 },
  ];

  it('draws one horizontal bar row per module (completed and in progress), labelled by week and title, titled for assistive tech', () => {
    const { container } = render(<FunnelChart modules={modules} label="Where Learners Stall" />);
    const svg = container.querySelector('svg') as SVGSVGElement;
    expect(svg.querySelector('title')?.textContent).toBe('Where Learners Stall');
    const labels = [...container.querySelectorAll('text')].map((text) => text.textContent);
    expect(labels).toEqual(expect.arrayContaining(['W1 · Welcome', moduleLabel(modules[1]), 'Completed', 'In progress', '0', '4']));
    const fills = [...container.querySelectorAll('path[role="presentation"]')].map((bar) => (bar as SVGPathElement).style.fill);
    // bars with a value: m1 completed, m1 and m2 in progress (a zero bar is drawn with no area or not at all)
    expect(fills.filter((fill) => fill === 'rgb(29, 78, 216)').length).toBeGreaterThanOrEqual(1);
    expect(fills.filter((fill) => fill === 'rgb(245, 158, 11)').length).toBeGreaterThanOrEqual(2);
    expect(FUNNEL_COLORS.completed).toBe('#1d4ed8');
  });

  it('cuts long labels to fit the axis', () => {
    expect(moduleLabel(modules[1])).toBe('W2 · A very long module tit…');
    expect(moduleLabel(modules[1]).length).toBe(28);
  });
});
