import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The DynamoDB Local a test file uses: one no other running file has claimed. DynamoDB Local
 * answers one request at a time per database, so two files on one database wait on each other
 * while the other database idles; the worker's pool id does not spread them (Vitest numbers the
 * workers of later groups past the number of databases). A claim is a file created exclusively
 * (`wx`) per endpoint in the run's claim directory, removed when the file ends; with every
 * database claimed (more files than workers at once, or a claim a crashed file left), the file
 * shares the one its pool id names.
 */
export function claimDynamoDbLocal(endpoints: readonly string[], claimDir: string): { endpoint: string; release: () => void } {
  for (const [index, endpoint] of endpoints.entries()) {
    const claimFile = path.join(claimDir, `dynamodb-${index}`);
    try {
      writeFileSync(claimFile, String(process.pid), { flag: 'wx' });
      return { endpoint, release: () => rmSync(claimFile, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return { endpoint: endpoints[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % endpoints.length], release: () => {} };
}
