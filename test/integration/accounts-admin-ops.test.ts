import { execFile, type ExecFileException } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../functions/accounts/passwords';
import { INDEX, indexPartition } from '../../functions/lib/table';
import { db, tableName } from '../../functions/lib/db';
import { getUserByEmail } from '../../functions/lib/users';
import { adminSeedSteps } from '../../infra/local/seed-admin';
import { useApi } from '../helpers/api';
import { createTestUser } from '../helpers/users';
import { storedAuditEntries } from '../helpers/audit-entries';

const api = useApi();
const execFileAsync = promisify(execFile);
/** The operator command as `npm run make-admin` runs it (tsx), without npx's start-up cost. */
const makeAdmin = (email: string, env: NodeJS.ProcessEnv) =>
  execFileAsync(process.execPath, ['--import', 'tsx', 'infra/ops/make-admin.ts', email], { env });
const seed = () => adminSeedSteps[0].run({ log: () => undefined });
/** `expect.stringMatching` is typed `any`: held as `unknown` so the objects it goes into stay type-checked. */
const aGeneratedPassword: unknown = expect.stringMatching(/^[\w-]{24}$/);

async function usersWithEmail(email: string) {
  const result = await db().send(
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
  return result.Items ?? [];
}

describe('administrator operations', () => {
  it('seeds one verified administrator, idempotently, reporting a random password only once', async () => {
    const adminEmail = `admin-${randomUUID().slice(0, 8)}@example.com`;
    process.env.ADMIN_EMAIL = adminEmail;
    delete process.env.ADMIN_PASSWORD;
    try {
      const first = await seed();
      expect(first).toEqual({ adminEmail, adminPassword: aGeneratedPassword });
      const second = await seed();
      expect(second).toEqual({ adminEmail });
      expect(await usersWithEmail(adminEmail)).toHaveLength(1);

      const admin = (await getUserByEmail(adminEmail))!;
      expect(admin).toMatchObject({ role: 'admin', verified: true, status: 'active' });
      expect(await verifyPassword((first as Record<string, string>).adminPassword, admin.password_hash)).toBe(true);
      // The administrator signs in like anyone else (step 1 accepts the password).
      const login = await api
        .client()
        .post('/api/auth/login', { email: adminEmail, password: (first as Record<string, string>).adminPassword });
      expect(login.status).toBe(200);
      expect(login.body.two_factor_pending).toBe(true);
    } finally {
      delete process.env.ADMIN_EMAIL;
    }
  });

  it('uses ADMIN_PASSWORD when given, without echoing it', async () => {
    const adminEmail = `admin-${randomUUID().slice(0, 8)}@example.com`;
    Object.assign(process.env, { ADMIN_EMAIL: adminEmail, ADMIN_PASSWORD: 'operator chosen secret' });
    try {
      expect(await seed()).toEqual({ adminEmail });
      expect(await verifyPassword('operator chosen secret', (await getUserByEmail(adminEmail))!.password_hash)).toBe(true);
    } finally {
      delete process.env.ADMIN_EMAIL;
      delete process.env.ADMIN_PASSWORD;
    }
  });

  it('promotes an existing account with the make-admin command, writing an audit entry', async () => {
    const user = await createTestUser();
    const env = { ...process.env, TABLE_NAME: tableName(), LOG_LEVEL: 'SILENT' };
    const { stdout } = await makeAdmin(user.email.toUpperCase(), env);
    expect(stdout).toContain(`${user.email} is now an administrator`);
    expect((await getUserByEmail(user.email))!.role).toBe('admin');

    const audit = { Items: await storedAuditEntries('user', user.id) };
    expect(audit.Items?.find((item) => item.action === 'user.role_changed')).toMatchObject({
      old_values: { role: 'learner' },
      new_values: { role: 'admin' },
    });

    const again = await makeAdmin(user.email, env);
    expect(again.stdout).toContain('was already an administrator');

    const failed: unknown = await makeAdmin('nobody@example.com', env).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(Error);
    const missing = failed as ExecFileException & { stderr: string };
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no account with the email nobody@example.com');
  }, 90_000);
});
