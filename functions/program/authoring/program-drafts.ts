import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuthorRef, ProgramContentJson, ProgramDraft, PublishResult } from '@shared/program-authoring';
import { PROGRAM_LIMITS } from '@shared/program-authoring';
import { auditPuts } from '../../lib/audit';
import { db, tableName } from '../../lib/db';
import { badRequest, conflict } from '../../lib/errors';
import { failedConditions } from '../../lib/retry';
import { keys } from '../../lib/table';
import { adminAudit, type AdminCaller } from '../../lib/admin-caller';
import { program, rawProgramContent } from '../content';
import { getVersionRecord, publishedVersionNumber } from '../published-program';
import { contentChanges } from '@shared/program-changes';
import { auditValues, hasChanges } from './content-changes';
import { programMetaFields, versionItem, type DraftRecord } from './program-items';
import { validContent } from './validate-content';
import { nowIso } from '../../lib/clock';

/**
 * The administrators' draft and publishing (docs/product.md#program-authoring). Every write of
 * the draft names the revision it was based on and is refused with 409 `draft_conflict` when
 * another administrator wrote it meanwhile, with who did and what differs, so nobody overwrites
 * anybody silently. Publishing stores the draft as the next version, points META at it and bumps
 * the draft's revision in one transaction with its audit entry: learners see all of it or none.
 */
const programId = () => program().id;

export async function publishedContent(version: number): Promise<ProgramContentJson> {
  if (version === 0) return rawProgramContent as ProgramContentJson;
  const record = await getVersionRecord(programId(), version);
  if (!record) throw new Error(`program version ${version} is published but missing`);
  return record.content;
}

async function getDraftRecord(): Promise<DraftRecord | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: keys.programDraft(programId()), ConsistentRead: true }));
  return result.Item as DraftRecord | undefined;
}

function draftView(draft: DraftRecord | undefined, published: ProgramContentJson, publishedVersion: number): ProgramDraft {
  const content = draft?.content ?? published;
  return {
    revision: draft?.revision ?? 0,
    content,
    published_version: publishedVersion,
    based_on_version: draft?.based_on_version ?? publishedVersion,
    updated_at: draft?.updated_at ?? null,
    updated_by: draft?.updated_by ?? null,
    changes: contentChanges(published, content),
  };
}

/** `GET /api/admin/program/draft`: the draft, or the published content when nobody saved one. */
export async function getDraft(): Promise<ProgramDraft> {
  const [draft, version] = await Promise.all([getDraftRecord(), publishedVersionNumber()]);
  return draftView(draft, await publishedContent(version), version);
}

const revisionOf = (value: unknown): number => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw badRequest('invalid_revision', { fields: ['revision'] });
  return value;
};

const author = (caller: AdminCaller): AuthorRef => ({ id: caller.admin.id, email: caller.admin.email });

/** The 409 of a lost version check: who wrote the draft, when, and how it differs from what was sent. */
async function draftConflict(sent: ProgramContentJson | null) {
  const current = await getDraft();
  return conflict('draft_conflict', {
    message: `${current.updated_by?.email ?? 'Another administrator'} changed the draft meanwhile; nothing was written.`,
    revision: current.revision,
    updated_by: current.updated_by,
    updated_at: current.updated_at,
    changes: sent ? contentChanges(sent, current.content) : current.changes,
  });
}

/** The draft's version check as a condition: no draft yet (revision 0), or this revision. */
const revisionCondition = (revision: number) =>
  revision === 0
    ? { ConditionExpression: 'attribute_not_exists(pk)' }
    : { ConditionExpression: 'revision = :expected', ExpressionAttributeValues: { ':expected': revision } };

export const DRAFT_ACTIONS = ['draft_save', 'import', 'restore'] as const;
export type DraftAction = (typeof DRAFT_ACTIONS)[number];

/**
 * Replaces the draft's content (a save, an import or a restore), validated first (400 and
 * nothing written), guarded by `revision`, audited in the same transaction.
 */
export async function writeDraft(
  action: DraftAction,
  input: { revision?: unknown; content?: unknown },
  caller: AdminCaller,
  facts: Record<string, unknown> = {},
): Promise<ProgramDraft> {
  const revision = revisionOf(input.revision);
  const content = validContent(input.content, programId());
  const [before, version] = await Promise.all([getDraftRecord(), publishedVersionNumber()]);
  if ((before?.revision ?? 0) !== revision) throw await draftConflict(content);
  const published = await publishedContent(version);
  const previous = before?.content ?? published;
  const changes = contentChanges(previous, content);
  const at = nowIso();
  const item: DraftRecord = {
    ...keys.programDraft(programId()),
    type: 'program_draft',
    program_id: programId(),
    content,
    revision: revision + 1,
    based_on_version: before?.based_on_version ?? version,
    updated_at: at,
    updated_by: author(caller),
    // carried to the version this draft is published as
    ...(typeof facts.restored_from === 'number' ? { restored_from: facts.restored_from } : {}),
  };
  const values = auditValues(previous, content, changes);
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: item, ...revisionCondition(revision) } },
          ...auditPuts(
            adminAudit(
              caller,
              `admin.program.${action}`,
              { type: 'program', id: programId() },
              {
                old: { revision, ...values.old },
                new: { revision: item.revision, ...facts, ...values.new },
              },
            ),
          ),
        ],
      }),
    );
  } catch (error) {
    if (failedConditions(error).includes(0)) throw await draftConflict(content);
    throw error;
  }
  return draftView(item, published, version);
}

/** `POST /api/admin/program/publish` {revision, change_note} */
export async function publishDraft(input: { revision?: unknown; change_note?: unknown }, caller: AdminCaller): Promise<PublishResult> {
  const revision = revisionOf(input.revision);
  const note = typeof input.change_note === 'string' ? input.change_note.trim() : '';
  if (!note) throw badRequest('change_note_required', { fields: ['change_note'] });
  if (note.length > PROGRAM_LIMITS.changeNoteChars) throw badRequest('field_too_long', { fields: ['change_note'] });
  const [draft, version] = await Promise.all([getDraftRecord(), publishedVersionNumber()]);
  if ((draft?.revision ?? 0) !== revision) throw await draftConflict(null);
  const published = await publishedContent(version);
  const changes = contentChanges(published, draft?.content ?? published);
  if (!draft || !hasChanges(changes)) throw conflict('no_changes', { message: 'The draft is the same as the published version.' });
  const next = version + 1;
  const at = nowIso();
  const values = auditValues(published, draft.content, changes);
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: versionItem(draft.content, next, {
                change_note: note,
                published_at: at,
                published_by: author(caller),
                ...(draft.restored_from ? { restored_from: draft.restored_from } : {}),
              }),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: programMetaFields(draft.content, next, at),
              ...(version === 0
                ? { ConditionExpression: 'attribute_not_exists(published_version)' }
                : { ConditionExpression: 'published_version = :current', ExpressionAttributeValues: { ':current': version } }),
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: keys.programDraft(programId()),
              UpdateExpression:
                'SET revision = :next, based_on_version = :version, updated_at = :at, updated_by = :by REMOVE restored_from',
              ConditionExpression: 'revision = :expected',
              ExpressionAttributeValues: {
                ':next': revision + 1,
                ':version': next,
                ':at': at,
                ':by': author(caller),
                ':expected': revision,
              },
            },
          },
          ...auditPuts(
            adminAudit(
              caller,
              'admin.program.publish',
              { type: 'program', id: programId() },
              {
                old: { version, ...values.old },
                new: { version: next, change_note: note, ...values.new },
              },
            ),
          ),
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException && failedConditions(error).length) throw await draftConflict(null);
    throw error;
  }
  return { ok: true, version: next, published_at: at, changes };
}
