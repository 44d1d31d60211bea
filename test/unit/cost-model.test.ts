import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { costTable, monthlyCost } from '../bench/cost-model';

const PAGE = readFileSync(path.resolve(import.meta.dirname, '../../docs/cost-model.md'), 'utf8');

describe('the cost model (docs/cost-model.md)', () => {
  it('shows the table the model computes', () => {
    const shown = /<!-- cost-table:start[^>]*-->\n([\s\S]*?)\n<!-- cost-table:end -->/.exec(PAGE)?.[1];
    expect(shown).toBe(costTable());
  });

  it('names the three largest items at a million learners, in order', () => {
    const cost = monthlyCost(1_000_000);
    const items = { 'Audit storage': cost.auditStorage, 'SES mail': cost.ses, 'DynamoDB requests': cost.dynamodb, Lambda: cost.lambda };
    const top = Object.entries(items)
      .sort(([, a], [, b]) => b - a)
      .slice(0, 3)
      .map(([name]) => name);
    const named = [...PAGE.matchAll(/^\d\. \*\*([^(*]+?) \(/gm)].map((match) => match[1]);
    expect(named).toEqual(top);
  });
});
