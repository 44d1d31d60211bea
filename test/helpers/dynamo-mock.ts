import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';

/**
 * The document client mocked for the tests of the calling file or describe block, reset before
 * each test, with no wait between retries (the back-off's random share is zero).
 */
export function mockDocumentClient() {
  const dynamo = mockClient(DynamoDBDocumentClient);
  afterAll(() => dynamo.restore());
  beforeEach(() => {
    dynamo.reset();
    vi.spyOn(Math, 'random').mockReturnValue(0);
  });
  afterEach(() => vi.restoreAllMocks());
  return dynamo;
}
