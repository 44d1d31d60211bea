import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { VERSION_NUMBER } from '@shared/key-values';
import type { ProgramDraft, ProgramVersionList, ProgramVersionSummary, ProgramVersionView } from '@shared/program-authoring';
import { db, tableName } from '../../lib/db';
import { badRequest, notFound } from '../../lib/errors';
import { keys } from '../../lib/table';
import type { AdminCaller } from '../../lib/admin-caller';
import { program } from '../content';
import { getVersionRecord, publishedVersionNumber } from '../published-program';
import { contentChanges } from '@shared/program-changes';
import type { VersionRecord } from './program-items';
import { writeDraft } from './program-drafts';

/**
 * Published versions: kept for good, listed newest first a page at a time (each page one Query
 * of the program's partition, VERSION# keys below `before`), compared with the one before,
 * exported as JSON in the shape of functions/program/content/, restored as a new draft.
 */
export const VERSIONS_PAGE_SIZE = 20;

const summary = (record: VersionRecord): ProgramVersionSummary => ({
  version: record.version,
  change_note: record.change_note,
  published_at: record.published_at,
  published_by: record.published_by ?? null,
  restored_from: record.restored_from ?? null,
  module_count: record.module_count,
});

const versionNumber = (raw: string | undefined): number => {
  const version = Number(raw);
  if (!raw || !VERSION_NUMBER.test(raw) || version < 1) throw badRequest('invalid_version');
  return version;
};

/** `GET /api/admin/program/versions?before=<n>` */
export async function listVersions(query: { before?: string }): Promise<ProgramVersionList> {
  const before = query.before === undefined ? undefined : versionNumber(query.before);
  const id = program().id;
  // nothing comes before version 1 (and a key range whose end precedes its start is refused)
  if (before === 1) return { versions: [], published_version: await publishedVersionNumber(id), next_before: null };
  const [page, published] = await Promise.all([
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
        ExpressionAttributeValues: {
          ':pk': keys.programMeta(id).pk,
          ':first': keys.programVersion(id, 1).sk,
          ':last': keys.programVersion(id, before === undefined ? 999_999 : before - 1).sk,
        },
        // the listing shows no content: leave the big attribute out of the answer
        ProjectionExpression: 'version, change_note, published_at, published_by, restored_from, module_count',
        ScanIndexForward: false,
        Limit: VERSIONS_PAGE_SIZE,
      }),
    ),
    publishedVersionNumber(id),
  ]);
  const versions = (page.Items ?? []).map((item) => summary(item as VersionRecord));
  const last = versions.at(-1)?.version;
  return { versions, published_version: published, next_before: page.LastEvaluatedKey && last && last > 1 ? last : null };
}

async function versionRecord(raw: string | undefined): Promise<VersionRecord> {
  const record = await getVersionRecord(program().id, versionNumber(raw));
  if (!record) throw notFound('version_not_found');
  return record;
}

/** `GET /api/admin/program/versions/{version}`: the content and what it changed from the version before. */
export async function getVersion(raw: string | undefined): Promise<ProgramVersionView> {
  const record = await versionRecord(raw);
  const previous = record.version > 1 ? await getVersionRecord(program().id, record.version - 1) : undefined;
  return { ...summary(record), content: record.content, changes: contentChanges(previous?.content ?? null, record.content) };
}

/** `GET /api/admin/program/versions/{version}/export`: the content as a JSON file. */
export async function exportVersion(raw: string | undefined) {
  const record = await versionRecord(raw);
  return { fileName: `${record.program_id}-v${record.version}.json`, json: `${JSON.stringify(record.content, null, 2)}\n` };
}

/** `POST /api/admin/program/versions/{version}/restore` {revision}: that version's content becomes the draft. */
export async function restoreVersion(raw: string | undefined, input: { revision?: unknown }, caller: AdminCaller): Promise<ProgramDraft> {
  const record = await versionRecord(raw);
  return writeDraft('restore', { revision: input.revision, content: record.content }, caller, { restored_from: record.version });
}
