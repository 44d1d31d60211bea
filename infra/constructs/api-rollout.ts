import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaApplication, LambdaDeploymentConfig, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { Alias } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';

/**
 * How a new release of the API functions takes traffic (docs/runbook.md#deploy):
 * - `canary`: 10 % of the requests for 15 minutes, then all of them; an alarm in ALARM meanwhile
 *   (the API's 5xx rate, the function's errors) shifts every request back to the previous version
 *   and fails the deploy, which CloudFormation then rolls back.
 * - `all-at-once`: every request at once, alarms not consulted. For a roll back or a fix while the
 *   5xx alarm is already in ALARM, which would stop a canary before it starts (docs/runbook.md#roll-back).
 */
export type ApiRolloutMode = 'canary' | 'all-at-once';

/**
 * 15 minutes, not 5: the API 5xx alarm needs 2 of 3 five-minute periods over its threshold, so it
 * can only fire some 10 minutes after a bad version starts answering; CodeDeploy watches the
 * alarms only while the deployment runs, and a shorter canary would be over before either alarm
 * could say anything.
 */
export const API_CANARY = LambdaDeploymentConfig.CANARY_10PERCENT_15MINUTES;

/** The alias API Gateway invokes: the version CodeDeploy moved the traffic to. */
export const LIVE_ALIAS = 'live';

export interface ApiRolloutProps {
  /** The API functions by name (auth, passkeys, learner, admin). */
  functions: Record<string, NodejsFunction>;
  /** Default `canary`. */
  rollout?: ApiRolloutMode;
}

/**
 * Each API function behind a `live` alias whose version CodeDeploy moves by a canary: API Gateway
 * integrates the alias, never `$LATEST`, so a release that fails its alarms while it takes 10 % of
 * the traffic is rolled back without taking the site down.
 */
export class ApiRollout extends Construct {
  readonly aliases: Record<string, Alias> = {};
  readonly deploymentGroups: Record<string, LambdaDeploymentGroup> = {};

  constructor(scope: Construct, id: string, props: ApiRolloutProps) {
    super(scope, id);
    const rollout = props.rollout ?? 'canary';
    if (rollout !== 'canary' && rollout !== 'all-at-once')
      throw new Error(`apiRollout must be "canary" or "all-at-once", got "${String(rollout)}"`);
    const application = new LambdaApplication(this, 'Application');
    for (const [name, fn] of Object.entries(props.functions)) {
      // A version per code or configuration change. The previous one stays until the update
      // succeeds (CodeDeploy shifts back to it on an alarm), then CloudFormation deletes it:
      // versions do not pile up in the account's code storage.
      const version = fn.currentVersion;
      version.applyRemovalPolicy(RemovalPolicy.DESTROY);
      const alias = new Alias(this, `${name}Live`, { aliasName: LIVE_ALIAS, version });
      this.aliases[name] = alias;
      this.deploymentGroups[name] = new LambdaDeploymentGroup(this, `${name}Deployment`, {
        application,
        alias,
        deploymentConfig: rollout === 'canary' ? API_CANARY : LambdaDeploymentConfig.ALL_AT_ONCE,
        // a deployment the alarms stopped shifts the traffic back to the previous version
        autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: rollout === 'canary' },
        ignoreAlarmConfiguration: rollout === 'all-at-once',
      });
    }
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        "CodeDeploy's own service role for Lambda deployments: the managed policy lets it read and update the aliases, read the alarms and invoke hooks (none here), nothing of the data.",
    });
  }

  /** Alarms whose ALARM state during a canary rolls the function back (each group watches them all). */
  rollBackOn(name: string, ...alarms: IAlarm[]): void {
    const group = this.deploymentGroups[name];
    if (!group) throw new Error(`no deployment group for ${name}`);
    for (const alarm of alarms) group.addAlarm(alarm);
  }
}
