import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetConfigForTests } from './config';
import { createDocumentClient, ScanForbiddenError } from './db';

/** A DynamoDB endpoint that answers the given replies in turn (the last one repeats). */
async function endpointAnswering(replies: Array<{ status: number; body: unknown }>) {
  let calls = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const reply = replies[Math.min(calls++, replies.length - 1)];
      response.writeHead(reply.status, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  vi.stubEnv('DYNAMODB_ENDPOINT', endpoint);
  resetConfigForTests();
  return { calls: () => calls, close: () => new Promise((resolve) => server.close(resolve)) };
}

const lockTimeout = {
  status: 500,
  body: {
    __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
    message: 'This action timed out because it too long waiting for a lock. This request will succeed in actual DynamoDB API',
  },
};
const item = { status: 200, body: { Item: { pk: { S: 'USER#1' }, sk: { S: 'PROFILE' } } } };

describe('the DynamoDB client', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetConfigForTests();
  });

  it('refuses any Scan before it reaches the network (docs/data-model.md: no Scan on request or job paths)', async () => {
    const client = createDocumentClient({ endpoint: 'http://127.0.0.1:9', maxAttempts: 1 });
    await expect(client.send(new ScanCommand({ TableName: 'anything' }))).rejects.toBeInstanceOf(ScanForbiddenError);
  });

  it("retries DynamoDB Local's lock timeouts beyond the SDK's own attempts", async () => {
    const endpoint = await endpointAnswering([lockTimeout, lockTimeout, lockTimeout, item]);
    try {
      const client = createDocumentClient({ maxAttempts: 1 });
      const { Item } = await client.send(new GetCommand({ TableName: 't', Key: { pk: 'USER#1', sk: 'PROFILE' } }));
      expect(Item).toEqual({ pk: 'USER#1', sk: 'PROFILE' });
      expect(endpoint.calls()).toBe(4);
    } finally {
      await endpoint.close();
    }
  });

  it('passes any other server error through after the SDK attempts', async () => {
    const endpoint = await endpointAnswering([{ status: 500, body: { __type: 'InternalServerError', message: 'Internal server error' } }]);
    try {
      const client = createDocumentClient({ maxAttempts: 1 });
      await expect(client.send(new GetCommand({ TableName: 't', Key: { pk: 'USER#1', sk: 'PROFILE' } }))).rejects.toThrow(
        'Internal server error',
      );
      expect(endpoint.calls()).toBe(1);
    } finally {
      await endpoint.close();
    }
  });
});
