import { describe, expect, it } from 'vitest';
import { IntrinsicResolver } from './intrinsics';

const resolver = new IntrinsicResolver(
  {
    Table: { Type: 'AWS::DynamoDB::Table' },
    Queue: { Type: 'AWS::SQS::Queue' },
    Secret: { Type: 'AWS::SecretsManager::Secret' },
    Identity: { Type: 'AWS::SES::EmailIdentity', Properties: { EmailIdentity: 'no-reply@example.com' } },
    Logs: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: '/aws/lambda/x' } },
  },
  { account: '123456789012', region: 'eu-west-1', stackName: 'Stack', physicalNames: { Table: 'career-program' } },
);

describe('intrinsics resolved as deployed', () => {
  it('gives ARNs and names the way each service forms them', () => {
    expect(resolver.resolve({ 'Fn::GetAtt': ['Table', 'Arn'] })).toBe('arn:aws:dynamodb:eu-west-1:123456789012:table/career-program');
    expect(resolver.resolve({ 'Fn::GetAtt': ['Queue', 'Arn'] })).toBe('arn:aws:sqs:eu-west-1:123456789012:Stack-Queue');
    expect(resolver.resolve({ Ref: 'Queue' })).toBe('https://sqs.eu-west-1.amazonaws.com/123456789012/Stack-Queue');
    expect(resolver.resolve({ Ref: 'Secret' })).toBe('arn:aws:secretsmanager:eu-west-1:123456789012:secret:Stack-Secret-AbCdEf');
    expect(resolver.resolve({ Ref: 'Identity' })).toBe('no-reply@example.com');
    expect(resolver.resolve({ 'Fn::GetAtt': ['Logs', 'Arn'] })).toBe('arn:aws:logs:eu-west-1:123456789012:log-group:/aws/lambda/x:*');
  });

  it('joins, splits, selects and substitutes, inside any structure', () => {
    expect(
      resolver.resolve({
        Resource: [
          {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':ses:',
                { Ref: 'AWS::Region' },
                ':',
                { Ref: 'AWS::AccountId' },
                ':identity/',
                { Ref: 'Identity' },
              ],
            ],
          },
          { 'Fn::Select': [1, { 'Fn::Split': ['/', 'a/b/c'] }] },
          { 'Fn::Sub': ['${T}/index/*', { T: { 'Fn::GetAtt': ['Table', 'Arn'] } }] },
          { 'Fn::Sub': 'arn:aws:ssm:${AWS::Region}:${AWS::AccountId}:parameter/x' },
        ],
      }),
    ).toEqual({
      Resource: [
        'arn:aws:ses:eu-west-1:123456789012:identity/no-reply@example.com',
        'b',
        'arn:aws:dynamodb:eu-west-1:123456789012:table/career-program/index/*',
        'arn:aws:ssm:eu-west-1:123456789012:parameter/x',
      ],
    });
  });

  it('refuses what it cannot resolve instead of guessing', () => {
    expect(() => resolver.resolve({ Ref: 'Missing' })).toThrow('not a resource');
    expect(() => resolver.resolve({ 'Fn::ImportValue': 'x' })).toThrow('not supported');
  });
});
