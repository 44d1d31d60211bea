import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/lib/table';
import { freePort } from '../../infra/local/processes';
import { type RuntimeProcess, startRuntimeProcess } from '../helpers/runtime-process';

/**
 * The post-deploy smoke script (infra/ops/smoke.ts) against the local runtime, as `npm start`
 * runs it: every check that needs no AWS account runs for real, so the script cannot drift from
 * the API it drives. The AWS-only checks (direct execute-api call, alarm subscriptions) are skipped here.
 */
let runtime: RuntimeProcess;
let table: DynamoDBDocumentClient;
beforeAll(async () => {
  runtime = await startRuntimeProcess();
  table = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: `http://127.0.0.1:${runtime.env.DYNAMODB_PORT}`,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
});
afterAll(async () => {
  table?.destroy();
  await runtime?.stop();
});

async function smoke(siteUrl: string): Promise<{ code: number; output: string }> {
  const env = { ...process.env, DYNAMODB_ENDPOINT: `http://127.0.0.1:${runtime.env.DYNAMODB_PORT}`, TABLE_NAME: 'career-program' };
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'infra/ops/smoke.ts', '--site-url', siteUrl],
      {
        env,
        timeout: 120_000,
      },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** The throwaway accounts the script announced, and whether anything of them is left in the table. */
async function leftovers(output: string): Promise<string[]> {
  const announced = [...output.matchAll(/throwaway (admin|learner): (\S+) \(([\w-]+)\)/g)].map((m) => ({ email: m[2], id: m[3] }));
  expect(announced).toHaveLength(2);
  const left: string[] = [];
  for (const { email, id } of announced) {
    for (const key of [keys.email(email), keys.user(id)]) {
      const found = await table.send(new GetCommand({ TableName: 'career-program', Key: key, ConsistentRead: true }));
      if (found.Item) left.push(`${key.pk} ${key.sk}`);
    }
  }
  return left;
}

describe('npm run smoke', () => {
  it('passes against the local runtime: health, a sign-in, a hard delete, and no throwaway account left', async () => {
    const { code, output } = await smoke(runtime.appUrl);
    expect(output).toContain('✓ health through the front door');
    expect(output).toContain('✓ a throwaway administrator signs in');
    expect(output).toContain('✓ the administrator soft-deletes and hard-deletes a throwaway learner');
    expect(output).toContain('✓ the throwaway accounts are gone');
    expect(output).toContain('- the API refuses a call that bypasses CloudFront: skipped');
    expect(output).toContain('- alarm topics have a confirmed subscription: skipped');
    expect(code, output).toBe(0);
    expect(await leftovers(output)).toEqual([]);
  });

  it('fails when the site does not answer, and still purges its throwaway accounts', async () => {
    const { code, output } = await smoke(`http://127.0.0.1:${await freePort()}`);
    expect(output).toMatch(/✗ health through the front door/);
    expect(output).toMatch(/✗ a throwaway administrator signs in/);
    expect(output).toContain('✓ the throwaway accounts are gone');
    expect(code, output).toBe(1);
    expect(await leftovers(output)).toEqual([]);
  });
});
