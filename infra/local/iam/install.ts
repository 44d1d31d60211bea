import { registerLocalTwin } from '../../../functions/lib/local-twin';
import { DynamoDbLimitsTwin } from '../dynamodb-limits';
import { loadIamModel } from './load-model';
import type { TwinIamModel } from './model';
import { IamTwin } from './twin';

/**
 * Turns the IAM twin on in this process (before any function module creates an SDK client):
 * on by default in the local runtime and the tests; `IAM_TWIN=off` turns it off, with a warning,
 * for someone who needs to see whether a failure is IAM's (DynamoDB's key limits still hold,
 * infra/local/dynamodb-limits.ts). `IAM_TWIN_RECORD_DIR` makes it record
 * the grants each function used (the test run's grants report reads them).
 */
export async function installIamTwin(
  options: { model?: TwinIamModel; log?: (line: string) => void; env?: NodeJS.ProcessEnv } = {},
): Promise<IamTwin | undefined> {
  const env = options.env ?? process.env;
  const log = options.log ?? console.warn;
  if (env.IAM_TWIN === 'off') {
    log('Warning: IAM_TWIN=off: AWS calls are no longer checked against each function’s IAM role; what works now may be refused in AWS.');
    registerLocalTwin(new DynamoDbLimitsTwin());
    return undefined;
  }
  const model = options.model ?? (await loadIamModel(log));
  const twin = new IamTwin(model, { recordDir: env.IAM_TWIN_RECORD_DIR || undefined });
  registerLocalTwin(twin);
  // Mail is sent with the stack's configuration sets, as in the cloud, so their grants are exercised too.
  env.SES_CONFIGURATION_SET ??= model.configurationSetName;
  env.SES_BULK_CONFIGURATION_SET ??= model.bulkConfigurationSetName;
  return twin;
}
