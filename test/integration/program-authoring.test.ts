import { beforeAll, describe, expect, it } from 'vitest';
import { program, rawProgramContent } from '../../functions/program/content';
import { seedProgramContent } from '../../functions/program/seed-content';
import { percentComplete } from '../../functions/program/progress';
import type { AuditEntry, ListPage } from '../../shared/admin-types';
import type {
  ProgramContentJson,
  ProgramDraft,
  ProgramVersionList,
  ProgramVersionView,
  PublishResult,
} from '../../shared/program-authoring';
import type { DashboardState, ModulePage } from '../../shared/program-types';
import { useApi, type ApiClient } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { runAs } from '../../infra/local/iam/twin';
import { finishModule } from './program-helpers';

const api = useApi();
const bundled = program();
const copy = () => structuredClone(rawProgramContent) as ProgramContentJson;
const renumber = (content: ProgramContentJson) => {
  content.weeks.forEach((week) => week.modules.forEach((module, index) => (module.position = index + 1)));
  return content;
};
let admin: ApiClient;
let otherAdmin: ApiClient;
let adminEmail: string;

beforeAll(async () => {
  await runAs('seed', () => seedProgramContent());
  const [first, second] = await Promise.all([createTestUser({ role: 'admin' }), createTestUser({ role: 'admin' })]);
  adminEmail = first.email;
  admin = api.client();
  otherAdmin = api.client();
  await Promise.all([signIn(admin, first), signIn(otherAdmin, second)]);
});

const draft = async (client = admin) => (await client.get<ProgramDraft>('/api/admin/program/draft')).body;
const save = (revision: unknown, content: unknown, client = admin) =>
  client.put<ProgramDraft & { error?: string }>('/api/admin/program/draft', { revision, content });
const publish = (revision: unknown, change_note: unknown) =>
  admin.post<PublishResult & { error?: string }>('/api/admin/program/publish', { revision, change_note });

describe('program authoring access', () => {
  it('is for administrators only: 401 without a session, 403 for a learner', async () => {
    expect((await api.client().get('/api/admin/program/draft')).status).toBe(401);
    const learner = api.client();
    await signIn(learner, await createTestUser());
    for (const [method, path] of [
      ['GET', '/api/admin/program/draft'],
      ['PUT', '/api/admin/program/draft'],
      ['POST', '/api/admin/program/publish'],
      ['GET', '/api/admin/program/versions'],
      ['GET', '/api/admin/program/versions/1/export'],
    ]) {
      const response = await learner.request(method, path, method === 'GET' ? undefined : {});
      expect(response.status, path).toBe(403);
    }
  });
});

describe('drafts, publishing, versions', () => {
  it('saves a draft with version checks, refuses bad content, publishes atomically, lists, compares, exports, restores, imports', async () => {
    const initial = await draft();
    expect(initial).toMatchObject({ revision: 0, published_version: 1, changes: { program: [], modules: [] } });
    expect(initial.content).toEqual(JSON.parse(JSON.stringify(rawProgramContent)));

    // a draft save
    const edited = copy();
    edited.weeks[0].modules[0].title = 'Know your strengths, with evidence';
    const saved = await save(0, edited);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ revision: 1, updated_by: { email: adminEmail } });
    expect(saved.body.changes.modules).toEqual([
      { module_id: bundled.modules[0].module_id, title: 'Know your strengths, with evidence', change: 'edited', fields: ['title'] },
    ]);

    // another administrator still on revision 0: a conflict naming who changed what, nothing overwritten
    const theirs = copy();
    theirs.weeks[0].modules[1].summary = 'Their summary.';
    const conflict = await save(0, theirs, otherAdmin);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ error: 'draft_conflict', revision: 1, updated_by: { email: adminEmail } });
    expect((conflict.body as unknown as { message: string }).message).toMatch(/changed the draft meanwhile/);
    expect((conflict.body as unknown as ProgramDraft).changes.modules.map((change) => change.module_id).sort()).toEqual(
      [bundled.modules[0].module_id, bundled.modules[1].module_id].sort(),
    );
    expect((await draft()).content.weeks[0].modules[1].summary).toBe(bundled.modules[1].summary);

    // bad input: 400 with its code, nothing changed
    expect((await save('one', edited)).body).toMatchObject({ error: 'invalid_revision' });
    const unsafe = structuredClone(edited);
    unsafe.weeks[0].modules[0].sections[0].body[0] = '[Open](javascript:alert(1))';
    const refused = await save(1, unsafe);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'unsafe_link', problems: [{ path: 'weeks[0].modules[0].sections[0].body[0]' }] });
    for (const [code, edit] of [
      ['empty_field', (c: ProgramContentJson) => (c.weeks[1].modules[0].title = '')],
      ['unknown_task_kind', (c: ProgramContentJson) => ((c.weeks[0].modules[0].tasks[0] as { type: string }).type = 'upload')],
      [
        'too_many_tasks',
        (c: ProgramContentJson) => c.weeks[0].modules[0].tasks.push(...Array.from({ length: 8 }, () => c.weeks[0].modules[0].tasks[0])),
      ],
    ] as const) {
      const bad = copy();
      edit(bad);
      const response = await save(1, bad);
      expect([response.status, response.body.error], code).toEqual([400, code]);
    }
    const unchanged = await draft();
    expect([unchanged.revision, unchanged.content.weeks[0].modules[0].title]).toEqual([1, 'Know your strengths, with evidence']);

    // publish: a change note is required, the version check applies, then it is atomic
    expect((await publish(1, '  ')).body).toMatchObject({ error: 'change_note_required' });
    expect((await publish(1, 'x'.repeat(501))).body).toMatchObject({ error: 'field_too_long' });
    expect((await publish(0, 'Sharper title')).status).toBe(409);
    const published = await publish(1, 'Sharper title for module 1');
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ ok: true, version: 2, changes: { modules: [{ change: 'edited', fields: ['title'] }] } });
    expect(await draft()).toMatchObject({ revision: 2, published_version: 2, based_on_version: 2, changes: { modules: [] } });
    expect((await publish(2, 'Again')).body).toMatchObject({ error: 'no_changes' });

    // the history, newest first, a page at a time
    const list = await admin.get<ProgramVersionList>('/api/admin/program/versions');
    expect(list.body).toMatchObject({ published_version: 2, next_before: null });
    expect(list.body.versions.map((version) => [version.version, version.change_note])).toEqual([
      [2, 'Sharper title for module 1'],
      [1, 'The bundled program content.'],
    ]);
    expect(list.body.versions[0].published_by?.email).toBe(adminEmail);
    expect((await admin.get<ProgramVersionList>('/api/admin/program/versions?before=2')).body.versions.map((v) => v.version)).toEqual([1]);
    expect((await admin.get('/api/admin/program/versions?before=abc')).body).toMatchObject({ error: 'invalid_version' });
    // nothing before the first version: an empty page, not an error
    expect((await admin.get<ProgramVersionList>('/api/admin/program/versions?before=1')).body).toMatchObject({
      versions: [],
      next_before: null,
    });

    // a version and what it changed from the one before
    const v2 = await admin.get<ProgramVersionView>('/api/admin/program/versions/2');
    expect(v2.body).toMatchObject({ version: 2, changes: { modules: [{ module_id: bundled.modules[0].module_id, fields: ['title'] }] } });
    expect((await admin.get('/api/admin/program/versions/99')).status).toBe(404);
    expect((await admin.get('/api/admin/program/versions/99')).body).toMatchObject({ error: 'version_not_found' });
    expect((await admin.get('/api/admin/program/versions/0')).body).toMatchObject({ error: 'invalid_version' });

    // export: the content in the shape of functions/program/content/, as a file
    const exported = await admin.get<ProgramContentJson>('/api/admin/program/versions/2/export');
    expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="${bundled.id}-v2.json"`);
    expect(exported.body).toEqual(v2.body.content);
    expect((await admin.get('/api/admin/program/versions/7/export')).status).toBe(404);

    // restore version 1 as a new draft (version checked), then import the export back
    expect((await admin.post('/api/admin/program/versions/1/restore', { revision: 1 })).status).toBe(409);
    expect((await admin.post('/api/admin/program/versions/42/restore', { revision: 2 })).status).toBe(404);
    const restored = await admin.post<ProgramDraft>('/api/admin/program/versions/1/restore', { revision: 2 });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ revision: 3, changes: { modules: [{ module_id: bundled.modules[0].module_id }] } });
    expect(restored.body.content.weeks[0].modules[0].title).toBe(bundled.modules[0].title);

    expect(
      (await admin.post('/api/admin/program/import', { revision: 3, content: { ...exported.body, program_id: 'x' } })).body,
    ).toMatchObject({
      error: 'program_mismatch',
    });
    expect((await admin.post('/api/admin/program/import', { revision: 2, content: exported.body })).status).toBe(409);
    const imported = await admin.post<ProgramDraft>('/api/admin/program/import', { revision: 3, content: exported.body });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ revision: 4, changes: { modules: [] } });

    // each write is in the audit log, with the module's before and after
    const audit = await admin.get<ListPage<AuditEntry>>('/api/admin/audit-logs?entity_type=program');
    const actions = audit.body.items.map((entry) => entry.action);
    expect(actions).toEqual(['admin.program.import', 'admin.program.restore', 'admin.program.publish', 'admin.program.draft_save']);
    const publishEntry = audit.body.items[2];
    expect(publishEntry).toMatchObject({ actor_email: adminEmail, entity_id: bundled.id });
    expect(publishEntry.old_values).toMatchObject({ version: 1, [`${bundled.modules[0].module_id}.title`]: bundled.modules[0].title });
    expect(publishEntry.new_values).toMatchObject({
      version: 2,
      change_note: 'Sharper title for module 1',
      [`${bundled.modules[0].module_id}.title`]: 'Know your strengths, with evidence',
    });
    expect(audit.body.items[1].new_values).toMatchObject({ restored_from: 1 });
  });
});

describe('learners follow the published version', () => {
  it('keeps completions through edits, counts only published modules, opens a module added to a completed week', async () => {
    const learner = await createTestUser();
    const client = api.client();
    await signIn(client, learner);
    expect((await client.post('/api/enroll')).status).toBe(200);
    const week1 = bundled.weeks[0].modules;
    for (const module of week1) await finishModule(client, module.slug);

    // the administrators rename module 1, remove a week-2 module, add one to week 1, publish
    const current = await draft();
    const next = structuredClone(current.content);
    next.weeks[0].modules[0].title = 'Your strengths, proven';
    const [removed] = next.weeks[3].modules.splice(-1, 1);
    next.weeks[0].modules.push({
      ...structuredClone(next.weeks[0].modules[1]),
      module_id: 'added-module',
      slug: 'added-module',
      title: 'Added',
    });
    renumber(next);
    expect((await save(current.revision, next)).status).toBe(200);
    expect((await publish(current.revision + 1, 'Reshape week 1')).status).toBe(200);

    const total = bundled.modules.length; // one added, one removed
    const page = await client.get<ModulePage>(`/api/modules/${week1[0].slug}`);
    expect(page.body.module).toMatchObject({ title: 'Your strengths, proven', state: 'completed' });
    expect(page.body.module.tasks.filter((task) => task.required).every((task) => task.done)).toBe(true);
    expect(page.body.percent_complete).toBe(percentComplete(week1.length, total));

    const state = await client.get<DashboardState>('/api/dashboard/state');
    const grid = state.body.grid.flatMap((week) => week.modules);
    expect(grid.some((module) => module.module_id === removed.module_id)).toBe(false);
    expect(grid.find((module) => module.module_id === 'added-module')?.state).toBe('open');
    expect(grid.find((module) => module.module_id === bundled.weeks[1].modules[0].module_id)?.state).toBe('open');
    expect(state.body.open_module?.module_id).toBe('added-module');
    expect(state.body.percent_complete).toBe(percentComplete(week1.length, total));
    expect((await client.get(`/api/modules/${removed.slug}`)).status).toBe(404);

    // the session's open module and the admin funnel follow the published version too
    const me = await client.get<{ progress: { open_module: { title: string } | null } }>('/api/auth/me');
    expect(me.body.progress.open_module?.title).toBe('Added');
    const summary = await admin.get<{ funnel: Array<{ module_id: string }> }>('/api/admin/summary');
    const funnelIds = summary.body.funnel.map((row) => row.module_id);
    expect(funnelIds).toContain('added-module');
    expect(funnelIds).not.toContain(removed.module_id);
  });
});
