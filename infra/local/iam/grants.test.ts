import { describe, expect, it } from 'vitest';
import { grantUnits, unitsUsed, wildcardMatch } from './grants';
import { testModel } from './test-model';

const statement = {
  Effect: 'Allow' as const,
  Action: ['dynamodb:GetItem', 'dynamodb:Query'],
  Resource: 'arn:aws:dynamodb:eu-west-1:123456789012:table/career-program',
  Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USER#*', 'RATE#*'] } },
};

describe('grant units', () => {
  it('cut a statement into action × resource × leading-key pattern', () => {
    const units = grantUnits(testModel([statement, { Effect: 'Allow', Action: 'ssm:GetParameter', Resource: 'arn:aws:ssm:x' }]));
    expect(units.map((unit) => [unit.action, unit.leadingKeys ?? ''])).toEqual([
      ['dynamodb:GetItem', 'USER#*'],
      ['dynamodb:GetItem', 'RATE#*'],
      ['dynamodb:Query', 'USER#*'],
      ['dynamodb:Query', 'RATE#*'],
      ['ssm:GetParameter', ''],
    ]);
  });

  it('used by a call are the patterns its keys match, for its action only', () => {
    const used = unitsUsed('auth', 'P/0', statement, { action: 'dynamodb:GetItem', resource: statement.Resource, leadingKeys: ['USER#1'] });
    expect(used).toEqual([
      { fn: 'auth', statement: 'P/0', action: 'dynamodb:GetItem', resource: statement.Resource, leadingKeys: 'USER#*' },
    ]);
  });

  it("match IAM's wildcards, actions without case", () => {
    expect(wildcardMatch('USER#*', 'USER#1')).toBe(true);
    expect(wildcardMatch('USER#*', 'USERSEARCH#1')).toBe(false);
    expect(wildcardMatch('ses:Send*', 'SES:SENDEMAIL', true)).toBe(true);
    expect(wildcardMatch('a?c', 'abc')).toBe(true);
    expect(wildcardMatch('a.c', 'abc')).toBe(false);
  });
});
