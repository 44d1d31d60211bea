import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import ActivesChart from './actives-chart';

describe('ActivesChart', () => {
  it('draws a 280 px chart with short month-day x labels and whole-number y ticks', () => {
    const data = [
      { date: '2025-11-21', count: 1 },
      { date: '2025-11-22', count: 3 },
      { date: '2025-11-23', count: 2 },
    ];
    const { container } = render(<ActivesChart data={data} label="7-Day Actives" />);
    const svg = container.querySelector('svg') as SVGSVGElement;
    expect(svg.getAttribute('height')).toBe('280');
    const labels = [...container.querySelectorAll('text')].map((text) => text.textContent);
    expect(labels).toEqual(expect.arrayContaining(['Nov 21', 'Nov 22', 'Nov 23', '0', '1', '2', '3']));
    expect(labels.some((label) => /\./.test(label ?? ''))).toBe(false);
  });
});
