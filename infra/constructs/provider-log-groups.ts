import { CfnResource, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/**
 * Log retention for the Lambdas aws-cdk-lib creates on its own (the trigger provider, the S3
 * auto-delete provider): without a log group of their own, Lambda creates /aws/lambda/<name>
 * on first run with logs kept forever. Each gets a group with the stage's retention, assigned
 * through LoggingConfig. Call once, after every construct of the stack exists.
 */
export class ProviderLogGroups extends Construct {
  readonly logGroups: LogGroup[] = [];

  constructor(scope: Construct, id: string, props: { retention: RetentionDays }) {
    super(scope, id);
    const stack = Stack.of(this);
    for (const child of stack.node.findAll()) {
      if (!(child instanceof CfnResource) || child.cfnResourceType !== 'AWS::Lambda::Function') continue;
      const properties = (child as unknown as { _cfnProperties?: Record<string, unknown> })._cfnProperties;
      const loggingConfig = properties?.LoggingConfig ?? (child as unknown as { loggingConfig?: unknown }).loggingConfig;
      if (loggingConfig) continue;
      const logGroup = new LogGroup(this, `Logs${this.logGroups.length}`, {
        retention: props.retention,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      child.addPropertyOverride('LoggingConfig.LogGroup', logGroup.logGroupName);
      this.logGroups.push(logGroup);
    }
  }
}
