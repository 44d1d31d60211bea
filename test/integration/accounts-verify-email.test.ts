import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/lib/db';
import { keys } from '../../functions/lib/table';
import { getUserByEmail } from '../../functions/lib/users';
import { codeIn, latestEmail, useApi } from '../helpers/api';

const api = useApi();
const PASSWORD = 'marble kettle sunrise';

async function registered() {
  const email = `verify-${randomUUID().slice(0, 8)}@example.com`;
  const response = await api
    .client()
    .post('/api/auth/register', { first_name: 'Katherine', last_name: 'Johnson', email, password: PASSWORD, passwordConfirm: PASSWORD });
  expect(response.status).toBe(201);
  const code = codeIn(await latestEmail(email, /Verify your email/));
  const user = (await getUserByEmail(email))!;
  return { email, code, user, wrong: code === '000000' ? '999999' : '000000' };
}

describe('POST /api/auth/verify-email', () => {
  it('refuses a wrong code with invalid_code and leaves the account unverified', async () => {
    const { email, wrong, user } = await registered();
    const response = await api.client().post('/api/auth/verify-email', { email, code: wrong });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_code' });
    expect((await getUserByEmail(email))!.verified).toBe(false);
    const item = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.code(user.id, 'verify_email') }))).Item!;
    expect(item.attempts).toBe(1);
  });

  it('kills the code after 5 wrong tries: the right one no longer works', async () => {
    const { email, code, wrong } = await registered();
    for (let i = 0; i < 5; i++) {
      expect((await api.client().post('/api/auth/verify-email', { email, code: wrong })).body).toEqual({ error: 'invalid_code' });
    }
    const response = await api.client().post('/api/auth/verify-email', { email, code });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_code' });
    expect((await getUserByEmail(email))!.verified).toBe(false);
  });

  it('refuses an expired code', async () => {
    const { email, code, user } = await registered();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.code(user.id, 'verify_email'),
        UpdateExpression: 'SET expires_at = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const response = await api.client().post('/api/auth/verify-email', { email, code });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_code' });
  });

  it('accepts the right code once (single use), and an unknown email gets the same invalid_code', async () => {
    const { email, code } = await registered();
    expect((await api.client().post('/api/auth/verify-email', { email: email.toUpperCase(), code })).status).toBe(200);
    expect((await getUserByEmail(email))!.verified).toBe(true);
    expect((await api.client().post('/api/auth/verify-email', { email, code })).body).toEqual({ error: 'invalid_code' });
    const unknown = await api.client().post('/api/auth/verify-email', { email: `nobody-${randomUUID()}@example.com`, code });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'invalid_code' });
  });

  it('stores only a hash of the code, with a 10-minute TTL', async () => {
    const { code, user } = await registered();
    const item = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.code(user.id, 'verify_email') }))).Item!;
    expect(JSON.stringify(item)).not.toContain(code);
    const ttl = item.expires_at - Math.floor(Date.now() / 1000);
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
  });
});
