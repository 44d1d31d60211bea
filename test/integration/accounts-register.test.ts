import { randomUUID } from 'node:crypto';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/lib/db';
import { INDEX, indexPartition, keys } from '../../functions/lib/table';
import { getUserByEmail } from '../../functions/lib/users';
import { codeIn, emailsTo, latestEmail, useApi } from '../helpers/api';

const api = useApi();
const PASSWORD = 'a quiet lighthouse 42';
const newEmail = () => `reg-${randomUUID().slice(0, 8)}@example.com`;
const form = (overrides: Record<string, unknown> = {}) => ({
  first_name: 'Grace',
  last_name: 'Hopper',
  email: newEmail(),
  password: PASSWORD,
  passwordConfirm: PASSWORD,
  ...overrides,
});

describe('POST /api/auth/register: validation', () => {
  it('lists every missing field with missing_fields', async () => {
    const response = await api.client().post('/api/auth/register', { first_name: ' ', email: '', password: PASSWORD });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'missing_fields', fields: ['first_name', 'last_name', 'email', 'passwordConfirm'] });
  });

  it('names a single missing name with its own code', async () => {
    const first = await api.client().post('/api/auth/register', form({ first_name: '   ' }));
    expect(first.status).toBe(400);
    expect(first.body).toEqual({ error: 'first_name_required' });
    const last = await api.client().post('/api/auth/register', form({ last_name: undefined }));
    expect(last.body).toEqual({ error: 'last_name_required' });
  });

  it('refuses names over 100 characters after trimming, and accepts exactly 100', async () => {
    expect((await api.client().post('/api/auth/register', form({ first_name: 'x'.repeat(101) }))).body).toEqual({
      error: 'first_name_invalid',
    });
    expect((await api.client().post('/api/auth/register', form({ last_name: 'y'.repeat(101) }))).body).toEqual({
      error: 'last_name_invalid',
    });
    const ok = await api.client().post('/api/auth/register', form({ first_name: `  ${'x'.repeat(100)}  ` }));
    expect(ok.status).toBe(201);
  });

  it('refuses a malformed email', async () => {
    const response = await api.client().post('/api/auth/register', form({ email: 'not-an-email' }));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_email' });
  });

  it('refuses short, overlong and email-equal passwords with weak_password', async () => {
    const email = newEmail();
    for (const password of ['short7!', 'p'.repeat(129), email.toUpperCase()]) {
      const response = await api.client().post('/api/auth/register', form({ email, password, passwordConfirm: password }));
      expect(response.status, password).toBe(400);
      expect(response.body, password).toEqual({ error: 'weak_password' });
    }
    expect(await getUserByEmail(email)).toBeUndefined();
  });

  it('refuses common passwords of a valid length with their own code, common_password', async () => {
    const email = newEmail();
    for (const password of ['password1', 'Baseball', 'iloveyou']) {
      const response = await api.client().post('/api/auth/register', form({ email, password, passwordConfirm: password }));
      expect(response.status, password).toBe(400);
      expect(response.body, password).toEqual({ error: 'common_password' });
    }
    expect(await getUserByEmail(email)).toBeUndefined();
  });

  it('refuses a confirmation that differs with password_mismatch', async () => {
    const response = await api.client().post('/api/auth/register', form({ passwordConfirm: `${PASSWORD}!` }));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'password_mismatch' });
  });

  it('answers a wrongly typed field with invalid_request, never 500', async () => {
    const response = await api.client().post('/api/auth/register', form({ email: 42 }));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_request', fields: ['email'] });
  });
});

describe('POST /api/auth/register: one account per email', () => {
  it('answers already_registered for a verified email, whatever its case', async () => {
    const email = newEmail();
    const client = api.client();
    expect((await client.post('/api/auth/register', form({ email }))).status).toBe(201);
    await client.post('/api/auth/verify-email', { email, code: codeIn(await latestEmail(email, /Verify/)) });
    const again = await api.client().post('/api/auth/register', form({ email: `  ${email.toUpperCase()} ` }));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'already_registered' });
  });

  it('answers verification_pending for an unverified email and emails a fresh code, unless resends are throttled', async () => {
    const email = newEmail();
    expect((await api.client().post('/api/auth/register', form({ email }))).status).toBe(201);
    const firstCode = codeIn(await latestEmail(email, /Verify/));

    // Within the same minute: still verification_pending, but no new email (one resend a minute).
    const tooSoon = await api.client().post('/api/auth/register', form({ email: email.toUpperCase() }));
    expect(tooSoon.status).toBe(409);
    expect(tooSoon.body).toEqual({ error: 'verification_pending' });
    expect((await emailsTo(email)).length).toBe(1);

    // A minute later (the minute window item removed instead of waiting): a fresh code comes.
    const minute = Math.floor(Date.now() / 1000);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.rateWindow('codeResendPerMinute', email, minute - (minute % 60)),
        UpdateExpression: 'SET #count = :zero',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
    const again = await api.client().post('/api/auth/register', form({ email }));
    expect(again.body).toEqual({ error: 'verification_pending' });
    const emails = await emailsTo(email);
    expect(emails.length).toBe(2);
    // (the store's timestamps are coarse: pick the other email's code rather than the "latest")
    const freshCode = emails.map(codeIn).find((code) => code !== firstCode) ?? firstCode;
    // The earlier code died with the new one.
    if (freshCode !== firstCode) {
      expect((await api.client().post('/api/auth/verify-email', { email, code: firstCode })).body).toEqual({ error: 'invalid_code' });
    }
    expect((await api.client().post('/api/auth/verify-email', { email, code: freshCode })).status).toBe(200);
  });

  it('creates exactly one account under concurrent registrations of the same email', async () => {
    const email = newEmail();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api.client().post('/api/auth/register', form({ email: i % 2 ? email.toUpperCase() : email }))),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(9).fill(409)]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(['verification_pending', 'already_registered']).toContain(response.body.error);
    }
    const users = await db().send(
      new QueryCommand({
        TableName: tableName(),
        // every active account (the list index projects `email` as given, not email_lower)
        IndexName: INDEX.usersByStatus.indexName,
        KeyConditionExpression: '#pk = :status',
        FilterExpression: 'email IN (:email, :upper)',
        ExpressionAttributeNames: { '#pk': INDEX.usersByStatus.partitionKey },
        ExpressionAttributeValues: { ':status': indexPartition.usersByStatus('active'), ':email': email, ':upper': email.toUpperCase() },
      }),
    );
    expect(users.Items?.length).toBe(1);
  });
});
