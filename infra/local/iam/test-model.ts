import { INDEX } from '../../../functions/lib/table';
import type { PolicyStatement, TwinIamModel } from './model';
import { FUNCTION_KEYS } from './model';

/** A small model for the twin's unit tests: the given statements for `auth`, nothing for the others. */
export function testModel(authStatements: PolicyStatement[]): TwinIamModel {
  const table = 'arn:aws:dynamodb:eu-west-1:123456789012:table/career-program';
  const roles = Object.fromEntries(
    FUNCTION_KEYS.map((fn) => [
      fn,
      {
        roleArn: `arn:aws:iam::123456789012:role/Stack-${fn}Role`,
        functionPath: `Stack/${fn}`,
        policies: fn === 'auth' ? [{ name: 'AuthPolicy', document: { Version: '2012-10-17', Statement: authStatements } }] : [],
      },
    ]),
  ) as TwinIamModel['roles'];
  return {
    account: '123456789012',
    region: 'eu-west-1',
    stackName: 'Stack',
    tableArn: table,
    indexArns: Object.fromEntries(Object.values(INDEX).map((gsi) => [gsi.indexName, `${table}/index/${gsi.indexName}`])),
    queueArns: { purge: 'arn:aws:sqs:eu-west-1:123456789012:Stack-Purge', reminders: 'arn:aws:sqs:eu-west-1:123456789012:Stack-Reminders' },
    mailIdentityArn: 'arn:aws:ses:eu-west-1:123456789012:identity/no-reply@example.com',
    configurationSetName: 'Stack-MailEvents',
    configurationSetArn: 'arn:aws:ses:eu-west-1:123456789012:configuration-set/Stack-MailEvents',
    bulkConfigurationSetName: 'Stack-MailEventsBulk',
    bulkConfigurationSetArn: 'arn:aws:ses:eu-west-1:123456789012:configuration-set/Stack-MailEventsBulk',
    secretArns: {
      session: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:Stack-Session-AbCdEf',
      unsubscribe: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:Stack-Unsubscribe-AbCdEf',
      origin: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:Stack-Origin-AbCdEf',
      'device-audit': 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:Stack-DeviceAudit-AbCdEf',
    },
    parameterArns: { 'app-url': 'arn:aws:ssm:eu-west-1:123456789012:parameter/Stack/app-url' },
    bucketArns: { exports: 'arn:aws:s3:::stack-exports' },
    roles,
  };
}
