import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * A cold start loads only the clients every request needs (docs/lean-builds.md#cold-start):
 * DynamoDB and Secrets Manager. SES (mail), SQS (background work) and SSM (the site address,
 * for mail links and the Origin check of state-changing requests) are imported on first use.
 */
const loaded = new Set<string>();
const CLIENTS = { ses: '@aws-sdk/client-sesv2', sqs: '@aws-sdk/client-sqs', ssm: '@aws-sdk/client-ssm' };

beforeEach(() => {
  // a fresh module graph for each case, and a fresh mock whose factory notes the first import
  vi.resetModules();
  loaded.clear();
  for (const [name, module] of Object.entries(CLIENTS)) {
    vi.doMock(module, async (original) => {
      loaded.add(name);
      return original();
    });
  }
});
afterEach(() => {
  for (const module of Object.values(CLIENTS)) vi.doUnmock(module);
});

describe('loading a group handler', () => {
  it.each(['auth', 'passkeys', 'learner', 'admin'])(
    '%s loads neither the SES, the SQS nor the SSM client',
    async (group) => {
      await import(`../groups/${group}.ts`);
      expect([...loaded]).toEqual([]);
    },
    60_000,
  );

  it('the first send and the first parameter read load their client', async () => {
    const { ses } = await import('./email');
    await ses();
    const { createSsmProvider } = await import('./ssm-provider');
    createSsmProvider();
    await import('./sqs-client');
    expect([...loaded].sort()).toEqual(['ses', 'sqs', 'ssm']);
  }, 60_000);
});
