import { CfnResource, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/**
 * Log retention for the Lambdas aws-cdk-lib creates on its own (the trigger provider, the S3
 * auto-delete provider, the cross-region reference readers and writers): without a log group of
 * their own, Lambda creates /aws/lambda/<name> on first run with logs kept forever. Each gets a
 * group with the stage's retention, assigned through LoggingConfig. One per stack.
 *
 * The cross-region providers only come into being while the app prepares its stacks for
 * synthesis (when references are resolved), after every constructor and aspect has run. The
 * first hook after that is validation, so the groups are attached there; validation runs on
 * every synthesis, `cdk synth` and `Template.fromStack` alike.
 */
export class ProviderLogGroups extends Construct {
  readonly logGroups: LogGroup[] = [];
  private readonly covered = new Set<CfnResource>();

  constructor(scope: Construct, id: string, props: { retention: RetentionDays }) {
    super(scope, id);
    this.node.addValidation({
      validate: () => {
        this.attach(props.retention);
        return [];
      },
    });
  }

  private attach(retention: RetentionDays): void {
    for (const child of Stack.of(this).node.findAll()) {
      if (!(child instanceof CfnResource) || child.cfnResourceType !== 'AWS::Lambda::Function' || this.covered.has(child)) continue;
      const properties = (child as unknown as { _cfnProperties?: Record<string, unknown> })._cfnProperties;
      const loggingConfig = properties?.LoggingConfig ?? (child as unknown as { loggingConfig?: unknown }).loggingConfig;
      if (loggingConfig) continue;
      const logGroup = new LogGroup(this, `Logs${this.logGroups.length}`, { retention, removalPolicy: RemovalPolicy.DESTROY });
      child.addPropertyOverride('LoggingConfig.LogGroup', logGroup.logGroupName);
      this.covered.add(child);
      this.logGroups.push(logGroup);
    }
  }
}
