import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { hashPassword } from '../../functions/accounts/passwords';
import { db, tableName } from '../../functions/lib/db';
import { registerLocalTwin } from '../../functions/lib/local-twin';
import { keys } from '../../functions/lib/table';
import { insertUser } from '../../functions/lib/users';
import { installIamTwin } from '../../infra/local/iam/install';
import type { TwinIamModel } from '../../infra/local/iam/model';
import { synthesizeIamModel, type Template } from '../../infra/local/iam/synth-model';
import { IamTwin, runAs } from '../../infra/local/iam/twin';
import { useApi } from '../helpers/api';

/**
 * The local IAM twin (infra/local/iam) holds the API to the synthesized stack's roles: remove one
 * grant the code needs from the stack, and the journey that needs it fails as it would in AWS,
 * with DynamoDB's AccessDeniedException, while the stack as it is lets it through.
 */
const api = useApi();
const PASSWORD = 'violet tangerine orbit';

/** The stack, less the auth function's right to write sign-in challenges (`CHALLENGE#`). */
function withoutChallengeWrites(template: Template) {
  let removed = 0;
  for (const resource of Object.values(template.Resources).filter((entry) => entry.Type === 'AWS::IAM::Policy')) {
    const statements = (resource.Properties?.PolicyDocument as { Statement: Array<Record<string, unknown>> }).Statement;
    for (const statement of statements) {
      const keysCondition = (statement.Condition as Record<string, Record<string, string[]>> | undefined)?.['ForAllValues:StringLike'];
      if (statement.Action !== 'dynamodb:PutItem' || !keysCondition?.['dynamodb:LeadingKeys']?.includes('CHALLENGE#*')) continue;
      keysCondition['dynamodb:LeadingKeys'] = keysCondition['dynamodb:LeadingKeys'].filter((pattern) => pattern !== 'CHALLENGE#*');
      removed += 1;
    }
  }
  expect(removed).toBe(1); // only the auth function writes challenges
}

afterAll(async () => {
  // back to the stack as it is, for anything after this file in the same worker
  await installIamTwin({ model: JSON.parse(readFileSync(inject('iamModelFile'), 'utf8')) as TwinIamModel });
});

describe('the IAM twin', () => {
  it('fails the password step with AccessDenied once the stack no longer grants the challenge write, and not before', async () => {
    const email = `twin-${randomUUID().slice(0, 8)}@example.com`;
    await insertUser({ email, first_name: 'Iris', last_name: 'Am', password_hash: await hashPassword(PASSWORD), verified: true });
    expect((await api.client().post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200);

    const twin = new IamTwin(synthesizeIamModel({ editTemplate: withoutChallengeWrites }));
    registerLocalTwin(twin);
    const refused = await api.client().post('/api/auth/login', { email, password: PASSWORD });
    expect(refused.status).toBe(500);
    expect(refused.body).toEqual({ error: 'internal_error' });
    expect(twin.deniedCalls).toEqual([
      {
        fn: 'auth',
        action: 'dynamodb:PutItem',
        resource: twin.model.tableArn,
        leadingKeys: [expect.stringMatching(/^CHALLENGE#/) as unknown as string],
      },
    ]);
    const write = runAs('auth', () => db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.challenge('c-1'), type: 'x' } })));
    await expect(write).rejects.toMatchObject({ name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } });
  }, 60_000);
});
