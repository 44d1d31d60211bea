import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { hardDeleteUser } from '../../functions/admin/hard-delete';
import { continuePurge, readJob } from '../../functions/admin/purge-job';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { db } from '../../functions/lib/db';
import { program, rawProgramContent } from '../../functions/program/content';
import { versionItem } from '../../functions/program/authoring/program-items';
import { seedProgramContent } from '../../functions/program/seed-content';
import { queryAll } from '../../functions/lib/query-pages';
import { keys } from '../../functions/lib/table';
import type { ProgramContentJson, ProgramDraft, ProgramVersionList, PublishResult } from '../../shared/program-authoring';
import { runAs } from '../../infra/local/iam/twin';
import { useApi, type ApiClient } from '../helpers/api';
import { storedAuditEntries } from '../helpers/audit-entries';
import { hardDeleteToEnd } from '../helpers/hard-delete';
import { createTestUser, signIn } from '../helpers/users';
import { setUserFields } from './program-helpers';

/**
 * An administrator's erasure leaves nothing of them in what they wrote or what others wrote
 * about them (docs/security.md#privacy-of-the-audit-log): the program's draft and versions name
 * them by id only, their email and names leave the change notes, and the free text of the audit
 * entries about them (a soft-delete reason) no longer holds their email or names.
 */
const api = useApi();
const DAY = 24 * 3600 * 1000;
const copy = () => structuredClone(rawProgramContent) as ProgramContentJson;

beforeAll(() => runAs('seed', () => seedProgramContent()));

const draftOf = async (client: ApiClient) => (await client.get<ProgramDraft>('/api/admin/program/draft')).body;

async function saveAndPublish(client: ApiClient, title: string, note: string): Promise<number> {
  const content = copy();
  content.weeks[0].modules[0].title = title;
  const saved = await client.put<ProgramDraft>('/api/admin/program/draft', { revision: (await draftOf(client)).revision, content });
  expect(saved.status).toBe(200);
  const published = await client.post<PublishResult>('/api/admin/program/publish', { revision: saved.body.revision, change_note: note });
  expect(published.status).toBe(200);
  return published.body.version;
}

const programItems = () =>
  queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.programMeta(program().id).pk },
    ConsistentRead: true,
  });

describe('erasing an administrator', () => {
  it('leaves no program item and no audit value with their email or names', async () => {
    const tag = randomUUID().slice(0, 8);
    const erased = await createTestUser({
      role: 'admin',
      email: `Imogen.Eraseworth-${tag}@Erase.example`,
      first_name: 'Imogen',
      last_name: 'Eraseworth',
    });
    const other = await createTestUser({ role: 'admin', email: `keeper-${tag}@keep.example` });
    const erasedClient = api.client();
    const otherClient = api.client();
    await signIn(erasedClient, erased);
    await signIn(otherClient, other);

    // the erased admin publishes a version, then edits the draft again (the draft names them)
    const theirVersion = await saveAndPublish(erasedClient, 'Know your strengths, first pass', `First pass by Imogen (${erased.email})`);
    // another admin publishes, mentioning them in the note
    const otherVersion = await saveAndPublish(
      otherClient,
      'Know your strengths, reviewed',
      'Reviewed with Imogen Eraseworth; annual check',
    );
    const content = copy();
    content.weeks[0].modules[0].title = 'Know your strengths, third pass';
    const saved = await erasedClient.put<ProgramDraft>('/api/admin/program/draft', {
      revision: (await draftOf(erasedClient)).revision,
      content,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.updated_by).toEqual({ id: erased.id, email: erased.email });
    expect(JSON.stringify(await programItems())).toContain(erased.email);

    // the other admin soft-deletes them on request, naming them in the reason, then erases them
    const reason = `requested by ${erased.email.toLowerCase()}; Imogen Eraseworth asked by phone`;
    expect((await otherClient.post(`/api/admin/users/${erased.id}/soft-delete`, { reason })).status).toBe(200);
    await setUserFields(erased.id, { deleted_at: new Date(Date.now() - 31 * DAY).toISOString() });
    const { counts } = await hardDeleteToEnd(otherClient, erased);
    expect(counts.program_items_scrubbed).toBe(3); // the draft, their version (author and note), the other version's note

    // no program item holds their email or names; the references keep the id
    const items = await programItems();
    const text = JSON.stringify(items).toLowerCase();
    for (const personal of [erased.email.toLowerCase(), 'imogen', 'eraseworth']) expect(text, personal).not.toContain(personal);
    const byKey = new Map(items.map((item) => [item.sk, item]));
    expect(byKey.get('DRAFT')?.updated_by).toEqual({ id: erased.id, email: 'deleted-user' });
    expect(byKey.get(keys.programVersion(program().id, theirVersion).sk)).toMatchObject({
      published_by: { id: erased.id, email: 'deleted-user' },
      change_note: 'First pass by deleted-user (deleted-user)',
    });
    expect(byKey.get(keys.programVersion(program().id, otherVersion).sk)).toMatchObject({
      published_by: { id: other.id, email: other.email },
      change_note: 'Reviewed with deleted-user; annual check',
    });
    // as the console shows them
    const versions = (await otherClient.get<ProgramVersionList>('/api/admin/program/versions')).body.versions;
    expect(versions.find((version) => version.version === theirVersion)?.published_by).toEqual({ id: erased.id, email: 'deleted-user' });
    expect((await draftOf(otherClient)).updated_by).toEqual({ id: erased.id, email: 'deleted-user' });

    // the soft delete's reason, free text about them, is scrubbed inside the sentence
    const softDelete = (await storedAuditEntries<{ action: string; new_values: Record<string, unknown> }>('user', erased.id)).find(
      (entry) => entry.action === 'admin.user.soft_delete',
    );
    expect(softDelete?.new_values.deleted_reason).toBe('requested by deleted-user; deleted-user asked by phone');
  }, 120_000);

  it('leaves the program alone when a learner is erased', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const adminClient = api.client();
    await signIn(adminClient, admin);
    const learner = await createTestUser({ first_name: 'Annual', last_name: 'Reviewed' });
    const before = await programItems();
    expect((await adminClient.post(`/api/admin/users/${learner.id}/soft-delete`, { reason: 'asked' })).status).toBe(200);
    await setUserFields(learner.id, { deleted_at: new Date(Date.now() - 31 * DAY).toISOString() });
    const { counts } = await hardDeleteToEnd(adminClient, learner);
    expect(counts.program_items_scrubbed).toBe(0);
    expect(await programItems()).toEqual(before);
  }, 60_000);

  it('scrubs the program page by page, and a purge stopped in that step resumes there', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const adminClient = api.client();
    await signIn(adminClient, admin);
    const erased = await createTestUser({ role: 'admin', first_name: 'Ottoline', last_name: 'Pagewise' });
    // many versions they published (more than a page of the step), written directly
    const content = { program_id: program().id, title: 'T', description: 'D', weeks: [] };
    await batchWriteItems(
      Array.from({ length: 60 }, (_, index) => ({
        PutRequest: {
          Item: versionItem(content, 1000 + index, {
            change_note: `Batch ${index} by Ottoline`,
            published_at: new Date().toISOString(),
            published_by: { id: erased.id, email: erased.email },
          }),
        },
      })),
    );
    expect((await adminClient.post(`/api/admin/users/${erased.id}/soft-delete`, { reason: 'left' })).status).toBe(200);
    await setUserFields(erased.id, { deleted_at: new Date(Date.now() - 31 * DAY).toISOString() });

    // the request is stopped in the program step's second page
    let programWrites = 0;
    db().middlewareStack.add(
      (next, context) => async (args) => {
        const input = (args as { input?: { Key?: unknown } }).input;
        if (context.commandName === 'UpdateItemCommand' && JSON.stringify(input?.Key ?? '').includes('PROGRAM#') && ++programWrites === 30)
          throw new Error('simulated crash');
        return next(args);
      },
      { step: 'initialize', name: 'programCrash' },
    );
    const caller = { admin, ip: '203.0.113.1', userAgent: 'AdminBrowser' };
    try {
      await expect(
        runAs('admin', () => hardDeleteUser(erased.id, erased.email, caller, new Date(), { timeLeftMs: () => 60_000 })),
      ).rejects.toThrow('simulated crash');
    } finally {
      db().middlewareStack.remove('programCrash');
    }
    const stopped = await readJob(erased.id);
    expect(stopped).toMatchObject({ status: 'purging', step: 'program' });
    // the first page was checkpointed: the rerun starts after it
    expect(stopped?.cursor).toBeDefined();
    expect(stopped?.counts.program_items_scrubbed).toBeGreaterThanOrEqual(20);

    // the worker resumes and finishes: nothing of them left in the program's items
    const done = await runAs('purge', () => continuePurge(erased.id));
    expect(done.status).toBe('done');
    const text = JSON.stringify(await programItems());
    for (const personal of [erased.email, 'Ottoline']) expect(text, personal).not.toContain(personal);
  }, 120_000);
});
