/**
 * Resolves the CloudFormation intrinsics of a synthesized template to the values they take once
 * deployed in one account and region, as far as IAM policies need them: `Ref`, `Fn::GetAtt`
 * (`Arn` and the few other attributes policies name), `Fn::Join`, `Fn::Select`, `Fn::Split`,
 * `Fn::Sub`. Physical names are made up the way CloudFormation makes them (stack name + logical
 * ID) unless the template names the resource; the table takes the name the caller gives, since
 * the local table (one per test file) stands for it.
 */
export interface DeployTarget {
  account: string;
  region: string;
  stackName: string;
  /** Physical names chosen by the caller, by logical ID (the table). */
  physicalNames?: Record<string, string>;
}

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;

const SERVICE_OF: Record<string, string> = {
  'AWS::DynamoDB::Table': 'dynamodb',
  'AWS::SQS::Queue': 'sqs',
  'AWS::SecretsManager::Secret': 'secretsmanager',
  'AWS::Logs::LogGroup': 'logs',
  'AWS::IAM::Role': 'iam',
  'AWS::Lambda::Function': 'lambda',
  'AWS::SNS::Topic': 'sns',
  'AWS::SSM::Parameter': 'ssm',
};

export class IntrinsicResolver {
  constructor(
    private readonly resources: Resources,
    private readonly target: DeployTarget,
  ) {}

  /** The deployed value of any template fragment (strings, arrays, objects, intrinsics). */
  resolve(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((entry) => this.resolve(entry));
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 1) {
      const [name, argument] = entries[0];
      switch (name) {
        case 'Ref':
          return this.ref(String(argument));
        case 'Fn::GetAtt': {
          const [id, attribute] = Array.isArray(argument) ? argument.map(String) : String(argument).split('.');
          return this.attribute(id, attribute);
        }
        case 'Fn::Join': {
          const [separator, parts] = argument as [string, unknown[]];
          return (this.resolve(parts) as unknown[]).map(String).join(separator);
        }
        case 'Fn::Select': {
          const [index, list] = argument as [unknown, unknown];
          return (this.resolve(list) as unknown[])[Number(this.resolve(index))];
        }
        case 'Fn::Split': {
          const [separator, source] = argument as [string, unknown];
          return String(this.resolve(source)).split(separator);
        }
        case 'Fn::Sub':
          return this.sub(argument);
        default:
          if (name.startsWith('Fn::')) throw new Error(`intrinsic ${name} is not supported in an IAM policy of the twin`);
      }
    }
    return Object.fromEntries(entries.map(([key, entry]) => [key, this.resolve(entry)]));
  }

  private sub(argument: unknown): string {
    const [template, variables] = Array.isArray(argument) ? (argument as [string, Record<string, unknown>]) : [String(argument), {}];
    return template.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
      if (name in variables) return String(this.resolve(variables[name]));
      const [id, attribute] = name.split('.');
      return String(attribute ? this.attribute(id, attribute) : this.ref(id));
    });
  }

  private name(id: string): string {
    const fixed = this.target.physicalNames?.[id];
    if (fixed) return fixed;
    const properties = this.resources[id]?.Properties ?? {};
    for (const key of ['TableName', 'QueueName', 'Name', 'RoleName', 'FunctionName', 'LogGroupName', 'TopicName']) {
      if (typeof properties[key] === 'string') return properties[key];
    }
    return `${this.target.stackName}-${id}`;
  }

  private ref(id: string): string {
    const { account, region, stackName } = this.target;
    const pseudo: Record<string, string> = {
      'AWS::AccountId': account,
      'AWS::Region': region,
      'AWS::Partition': 'aws',
      'AWS::URLSuffix': 'amazonaws.com',
      'AWS::StackName': stackName,
    };
    if (id in pseudo) return pseudo[id];
    const resource = this.resources[id];
    if (!resource) throw new Error(`Ref to ${id}, which is not a resource of ${stackName}`);
    switch (resource.Type) {
      case 'AWS::SecretsManager::Secret':
      case 'AWS::SNS::Topic':
        return this.arn(id);
      case 'AWS::SQS::Queue':
        return `https://sqs.${region}.amazonaws.com/${account}/${this.name(id)}`;
      case 'AWS::SES::EmailIdentity':
        return String(resource.Properties?.EmailIdentity);
      default:
        return this.name(id);
    }
  }

  private attribute(id: string, attribute: string): string {
    if (attribute === 'Arn') return this.arn(id);
    if (attribute === 'StreamArn') return `${this.arn(id)}/stream/1970-01-01T00:00:00.000`;
    if (attribute === 'QueueName' || attribute === 'Name') return this.name(id);
    if (attribute === 'QueueUrl') return this.ref(id);
    throw new Error(`Fn::GetAtt ${id}.${attribute} is not supported by the twin`);
  }

  private arn(id: string): string {
    const { account, region } = this.target;
    const resource = this.resources[id];
    const name = this.name(id);
    switch (resource?.Type) {
      case 'AWS::DynamoDB::Table':
        return `arn:aws:dynamodb:${region}:${account}:table/${name}`;
      case 'AWS::SQS::Queue':
        return `arn:aws:sqs:${region}:${account}:${name}`;
      case 'AWS::SecretsManager::Secret':
        // Secrets Manager appends six random characters to every secret's name.
        return `arn:aws:secretsmanager:${region}:${account}:secret:${name}-AbCdEf`;
      case 'AWS::Logs::LogGroup':
        return `arn:aws:logs:${region}:${account}:log-group:${name}:*`;
      case 'AWS::IAM::Role':
        return `arn:aws:iam::${account}:role/${name}`;
      case 'AWS::Lambda::Function':
        return `arn:aws:lambda:${region}:${account}:function:${name}`;
      case 'AWS::SNS::Topic':
        return `arn:aws:sns:${region}:${account}:${name}`;
      case 'AWS::SSM::Parameter':
        return `arn:aws:ssm:${region}:${account}:parameter/${name.replace(/^\//, '')}`;
      case 'AWS::S3::Bucket':
        // bucket ARNs name neither region nor account (bucket names are global)
        return `arn:aws:s3:::${name.toLowerCase()}`;
      default: {
        const service = SERVICE_OF[resource?.Type ?? ''] ?? resource?.Type.split('::')[1]?.toLowerCase() ?? 'unknown';
        return `arn:aws:${service}:${region}:${account}:${name}`;
      }
    }
  }
}
