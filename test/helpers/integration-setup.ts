import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, aroundAll, beforeAll, inject } from 'vitest';
import { installIamTwin } from '../../infra/local/iam/install';
import { runAsOperator } from '../../infra/local/iam/twin';
import type { TwinIamModel } from '../../infra/local/iam/model';
import { ensureTable } from '../../infra/local/table-setup';
import { claimDynamoDbLocal } from './dynamodb-claim';

/**
 * Every integration test file gets its own table in the worker's DynamoDB Local, so files run in
 * parallel without seeing each other's data. The environment is set before any app module is
 * imported (they read it once), and so is the IAM twin: the handlers and jobs a test runs are
 * held to their function's IAM role (infra/local/iam). The test file's own code (its hooks, its
 * tests, the helpers they call) runs as the operator (`aroundAll` below): the twin fails closed,
 * so a call made as no one at all is refused.
 */
const tableName = `test-${randomUUID().slice(0, 8)}`;
// a DynamoDB Local no other running file uses (test/helpers/dynamodb-claim.ts)
const claim = claimDynamoDbLocal(inject('dynamodbEndpoints'), inject('dynamodbClaimDir'));
const dynamodbEndpoint = claim.endpoint;
afterAll(() => claim.release());
Object.assign(process.env, {
  STAGE: 'local',
  TABLE_NAME: tableName,
  DYNAMODB_ENDPOINT: dynamodbEndpoint,
  SES_ENDPOINT: inject('sesEndpoint'),
  AWS_REGION: 'us-east-1',
  SESSION_SECRET: 'integration-test-secret-integration-test',
  DEVICE_AUDIT_SECRET: 'integration-device-audit-integration-device-audit',
  // The local CloudFront sends it and the API requires it (functions/lib/origin-verify.ts).
  ORIGIN_SECRET: `integration-origin-${randomUUID()}`,
  APP_URL: 'http://localhost:3000',
  PASSWORD_HASH_LOG2N: '10',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'SILENT',
  IAM_TWIN_RECORD_DIR: inject('iamRecordDir'),
});
await installIamTwin({ model: JSON.parse(readFileSync(inject('iamModelFile'), 'utf8')) as TwinIamModel });
// Around the file's hooks and tests: what they call directly (set-up, checks of stored data) is
// the operator's; a request they send runs as its group's function, a job as its own (runAs).
aroundAll((runSuite) => runAsOperator(runSuite));

beforeAll(async () => {
  const client = new DynamoDBClient({
    endpoint: dynamodbEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await ensureTable(client, tableName);
  client.destroy();
});
