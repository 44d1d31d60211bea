import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { keys } from '../lib/table';
import type { VersionRecord } from './authoring/program-items';
import { buildProgram, program, type Program } from './content';

/**
 * The program learners see: the version administrators published (docs/product.md#program-authoring).
 * Each call reads the small META item for the published version number; a version's content
 * never changes once stored, so it is read and validated once per Lambda container and kept.
 * A publish is therefore seen by the next request of every container. Before the seed stored
 * version 1 (a table no deploy has seeded yet) the bundled content is that version.
 */
let cached: Program | undefined;

export async function publishedVersionNumber(programId = program().id): Promise<number> {
  const meta = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.programMeta(programId), ProjectionExpression: 'published_version' }),
  );
  return (meta.Item?.published_version as number | undefined) ?? 0;
}

export async function getVersionRecord(programId: string, version: number): Promise<VersionRecord | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: keys.programVersion(programId, version) }));
  return result.Item as VersionRecord | undefined;
}

export async function publishedProgram(): Promise<Program> {
  const bundled = program();
  const version = await publishedVersionNumber(bundled.id);
  if (version === 0) return bundled;
  if (cached?.version === version) return cached;
  const record = await getVersionRecord(bundled.id, version);
  if (!record) throw new Error(`program version ${version} is published but missing`);
  cached = buildProgram(record.content, version);
  return cached;
}
