import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { withWriteRetries } from '../lib/retry';
import { keys } from '../lib/table';
import { program } from '../program/content';
import { ANONYMOUS, type PersonalText } from './personal-text';

/**
 * An erased administrator's traces in the program's items (docs/security.md#privacy-of-the-audit-log):
 * the draft's `updated_by` and each published version's `published_by` name their author by id
 * and email (functions/program/authoring/program-items.ts). The purge's `program` step
 * (purge-job.ts) replaces the email of every author reference with the account's id by
 * {@link ANONYMOUS} (the id stays, as in the audit references: it names nobody once the account
 * is gone, whatever email the author had then), and the person's email and names in every
 * version's change note (personal-text.ts: whole words for names). Learners author nothing: the
 * step runs for administrators' accounts only.
 *
 * One page of the program's partition per call (Query by its key, {@link PROGRAM_SCRUB_PAGE}
 * items: a version holds its whole content, about 40 KB, read whole whatever the projection), so
 * the purge checkpoints between pages. Each change is an UpdateItem conditioned on the value it
 * replaces: a draft another administrator saved meanwhile (a new `updated_by`) is left as it is
 * now. Idempotent: a scrubbed item has nothing left to change.
 */
export const PROGRAM_SCRUB_PAGE = 25;

type Cursor = Record<string, unknown> | undefined;
interface AuthorRef {
  id?: unknown;
  email?: unknown;
}
interface ProgramItem {
  pk: string;
  sk: string;
  updated_by?: AuthorRef | null;
  published_by?: AuthorRef | null;
  change_note?: unknown;
}

const AUTHOR_FIELDS = ['updated_by', 'published_by'] as const;

/** Scrubs one page of the program's items. Answers how many items changed and where the next page starts (none: done). */
export async function scrubProgramAuthorPage(
  authorId: string,
  personal: PersonalText,
  cursor: Cursor,
): Promise<{ scrubbed: number; cursor: Cursor }> {
  const page = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.programMeta(program().id).pk },
      ProjectionExpression: 'pk, sk, updated_by, published_by, change_note',
      Limit: PROGRAM_SCRUB_PAGE,
      ExclusiveStartKey: cursor,
    }),
  );
  let scrubbed = 0;
  for (const item of (page.Items ?? []) as ProgramItem[]) if (await scrubItem(item, authorId, personal)) scrubbed += 1;
  return { scrubbed, cursor: page.LastEvaluatedKey };
}

async function scrubItem(item: ProgramItem, authorId: string, personal: PersonalText): Promise<boolean> {
  const sets: string[] = [];
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  for (const field of AUTHOR_FIELDS) {
    const author = item[field];
    if (!author || author.id !== authorId || author.email === ANONYMOUS) continue;
    names[`#${field}`] = field;
    Object.assign(names, { '#email': 'email', '#id': 'id' });
    sets.push(`#${field}.#email = :anonymous`);
    conditions.push(`#${field}.#id = :author`);
    Object.assign(values, { ':anonymous': ANONYMOUS, ':author': authorId });
  }
  if (typeof item.change_note === 'string') {
    const note = personal.scrub(item.change_note);
    if (note !== item.change_note) {
      names['#note'] = 'change_note';
      sets.push('#note = :note');
      conditions.push('#note = :before');
      Object.assign(values, { ':note': note, ':before': item.change_note });
    }
  }
  if (!sets.length) return false;
  try {
    await withWriteRetries(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      ),
    );
    return true;
  } catch (error) {
    // another administrator saved the draft meanwhile: it names them now, not the erased account
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
