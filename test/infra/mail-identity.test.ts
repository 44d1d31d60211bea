import { describe, expect, it } from 'vitest';
import { asList, policyStatements, synthStack } from './synth-stack';
import { asObject, at } from './template';

/** The SES identity: created by the stack, or used by name when it already exists (-c sesIdentityExists=true). */
const outputsOf = (s: ReturnType<typeof synthStack>) => asObject(s.template.toJSON().Outputs, 'Outputs');
const sendResources = (s: ReturnType<typeof synthStack>) =>
  policyStatements(s.template)
    .filter(({ statement }) => asList(statement.Action as string | string[]).includes('ses:SendEmail'))
    .map(({ statement }) => asList(statement.Resource));

describe('the SES mail identity', () => {
  it('outputs the three DKIM CNAME records of a domain the stack creates', () => {
    const s = synthStack({ sesDomain: 'example.org', mailFrom: 'hello@example.org' });
    s.template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'example.org' });
    const identityId = Object.keys(s.template.findResources('AWS::SES::EmailIdentity'))[0];
    const outputs = outputsOf(s);
    for (const n of [1, 2, 3]) {
      expect(at(outputs, `DkimRecord${n}`, 'Value'), `record ${n}`).toEqual({
        'Fn::Join': [
          ' ',
          [{ 'Fn::GetAtt': [identityId, `DkimDNSTokenName${n}`] }, 'CNAME', { 'Fn::GetAtt': [identityId, `DkimDNSTokenValue${n}`] }],
        ],
      });
    }
  });

  it('outputs no DKIM records for a single sender address', () => {
    const s = synthStack({ mailFrom: 'hello@example.org' });
    s.template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'hello@example.org' });
    expect(Object.keys(outputsOf(s)).filter((key) => key.startsWith('Dkim'))).toEqual([]);
  });

  it('uses an existing identity by name: nothing created, the send grants name it', () => {
    for (const [props, name] of [
      [{ sesDomain: 'example.org', mailFrom: 'hello@example.org' }, 'example.org'],
      [{ mailFrom: 'hello@example.org' }, 'hello@example.org'],
    ] as const) {
      const s = synthStack({ ...props, sesIdentityExists: true, env: { account: '123456789012', region: 'eu-west-1' } });
      expect(s.template.findResources('AWS::SES::EmailIdentity')).toEqual({});
      expect(Object.keys(outputsOf(s)).filter((key) => key.startsWith('Dkim'))).toEqual([]);
      const grants = sendResources(s);
      expect(grants.length).toBeGreaterThan(0);
      for (const resources of grants)
        expect(JSON.stringify(resources)).toContain(JSON.stringify(`:ses:eu-west-1:123456789012:identity/${name}`).slice(1, -1));
    }
  });
});
