import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { config } from '../lib/config';
import { db, tableName } from '../lib/db';
import { ApiError } from '../lib/errors';
import { defineRoute } from '../lib/http';

/** `GET /api/health`: 200 `{ ok: true }` once the database (and locally the mail endpoint) answer. */
export const health = defineRoute({
  handler: async () => {
    try {
      await db().send(new DescribeTableCommand({ TableName: tableName() }));
      const sesEndpoint = config().sesEndpoint;
      if (sesEndpoint) {
        const response = await fetch(`${sesEndpoint}/health-check`, { signal: AbortSignal.timeout(2000) });
        if (!response.ok) throw new Error(`mail endpoint answered ${response.status}`);
      }
    } catch {
      throw new ApiError(503, 'unavailable');
    }
    return { body: { ok: true } };
  },
});
