import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_GROUPS } from '../../shared/routes';
import { LIVE_ALIAS } from '../../infra/constructs/api-rollout';
import { STACK_FUNCTIONS, type SynthesizedStack, synthStack } from './synth-stack';
import { asObject, at, resourceOf, resourcesOf } from './template';

/**
 * Deploys that cannot take the site down (docs/runbook.md#deploy): API Gateway invokes each API
 * function's `live` alias, and CodeDeploy moves that alias to a new version by a canary that the
 * API's 5xx alarm and the function's errors alarm roll back.
 */
let s: SynthesizedStack;
let allAtOnce: SynthesizedStack;
beforeAll(() => {
  s = synthStack();
  allAtOnce = synthStack({ apiRollout: 'all-at-once' });
});

const alarmRef = (st: SynthesizedStack, alarmId: string) => ({ Name: { Ref: st.idOf(st.stack.monitoring.node.findChild(alarmId)) } });
const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

describe('the API functions', () => {
  it('each have a live alias on their current version, updated by their own CodeDeploy deployment group', () => {
    for (const group of ROUTE_GROUPS) {
      const aliasId = s.idOf(s.stack.apiRollout.aliases[group]);
      const alias = asObject(at(s.template.toJSON(), 'Resources', aliasId), aliasId);
      expect(at(alias, 'Properties', 'Name'), group).toBe(LIVE_ALIAS);
      expect(at(alias, 'Properties', 'FunctionName'), group).toEqual({ Ref: s.idOf(s.stack.functions[group].fn) });
      const versionId = at(alias, 'Properties', 'FunctionVersion', 'Fn::GetAtt', 0);
      expect(resourceOf(s.template, 'AWS::Lambda::Version', String(versionId)).Properties.FunctionName).toEqual({
        Ref: s.idOf(s.stack.functions[group].fn),
      });
      expect(alias.UpdatePolicy, group).toEqual({
        CodeDeployLambdaAliasUpdate: {
          ApplicationName: { Ref: s.idOf(s.stack.apiRollout.node.findChild('Application')) },
          DeploymentGroupName: { Ref: s.idOf(s.stack.apiRollout.deploymentGroups[group]) },
        },
      });
    }
  });

  it('take a release by a 15-minute canary that the API 5xx alarm and their errors alarm roll back', () => {
    for (const group of ROUTE_GROUPS) {
      const deployment = resourceOf(s.template, 'AWS::CodeDeploy::DeploymentGroup', s.idOf(s.stack.apiRollout.deploymentGroups[group]));
      expect(deployment.Properties, group).toMatchObject({
        DeploymentConfigName: 'CodeDeployDefault.LambdaCanary10Percent15Minutes',
        AlarmConfiguration: { Enabled: true, Alarms: [alarmRef(s, 'Api5xxRate'), alarmRef(s, `${capitalized(group)}Errors`)] },
      });
      expect(at(deployment.Properties, 'AutoRollbackConfiguration')).toEqual({
        Enabled: true,
        Events: expect.arrayContaining(['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM']) as unknown,
      });
    }
  });

  it('take a release at once, alarms not consulted, when the deploy says all-at-once (a roll back during an incident)', () => {
    for (const group of ROUTE_GROUPS) {
      const deployment = resourceOf(
        allAtOnce.template,
        'AWS::CodeDeploy::DeploymentGroup',
        allAtOnce.idOf(allAtOnce.stack.apiRollout.deploymentGroups[group]),
      );
      expect(deployment.Properties, group).toMatchObject({
        DeploymentConfigName: 'CodeDeployDefault.LambdaAllAtOnce',
        AlarmConfiguration: { Enabled: false },
      });
    }
    expect(() => synthStack({ apiRollout: 'linear' as never })).toThrow(/apiRollout must be "canary" or "all-at-once"/);
  });
});

describe('the background functions', () => {
  it('have no alias or canary: nothing splits their traffic (docs/runbook.md#deploy says why)', () => {
    const aliased = Object.values(resourcesOf(s.template, 'AWS::Lambda::Alias')).map((alias) => alias.Properties.FunctionName);
    const background = STACK_FUNCTIONS.filter((name) => !(ROUTE_GROUPS as readonly string[]).includes(name));
    for (const name of background) expect(aliased, name).not.toContainEqual({ Ref: s.idOf(s.stack.functions[name].fn) });
    expect(aliased).toHaveLength(ROUTE_GROUPS.length);
  });
});
