import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dayOf } from '../../functions/lib/activity';
import { db, tableName } from '../../functions/lib/db';
import { readStats } from '../../functions/lib/stats';
import { keys } from '../../functions/lib/table';
import { getUserById } from '../../functions/lib/users';
import { program } from '../../functions/program/content';
import { useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import type { DashboardState, ModulePage, TaskSave } from '../../shared/program-types';
import { doneBody, finishModule, finishProgram } from './program-helpers';

const api = useApi();
const content = program();
const week1 = content.modules.filter((m) => m.week_number === 1);
const [first, second] = content.modules;
/** `expect.any` is typed `any`: held as `unknown` so the objects it goes into stay type-checked. */
const anyString: unknown = expect.any(String);
const anyBoolean: unknown = expect.any(Boolean);

async function enrolledLearner() {
  const user = await createTestUser();
  const client = api.client();
  await signIn(client, user);
  expect((await client.post('/api/enroll')).status).toBe(200);
  return { user, client };
}

const readEnrollment = async (userId: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.enrollment(userId, content.id), ConsistentRead: true }))).Item!;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('GET /api/modules/{slug}', () => {
  it('serves the open module: content, tasks with the learner work, next module and percent', async () => {
    const { client } = await enrolledLearner();
    const page = await client.get<ModulePage>(`/api/modules/${first.slug}`);
    expect(page.status).toBe(200);
    expect(page.body.module).toMatchObject({
      module_id: first.module_id,
      slug: first.slug,
      title: first.title,
      summary: first.summary,
      week_number: 1,
      position: 1,
      state: 'open',
    });
    expect(page.body.module.sections.length).toBe(first.sections.length);
    expect(page.body.module.sections[0]).toEqual({ heading: first.sections[0].heading, body: anyString });
    expect(page.body.module.tasks.map((t: { task_id: string }) => t.task_id)).toEqual(first.tasks.map((t) => t.task_id));
    for (const task of page.body.module.tasks) {
      expect(task).toMatchObject({ done: false, updated_at: null, required: anyBoolean, label: anyString });
      expect(['checkbox', 'text']).toContain(task.type);
      if (task.type === 'text') expect(task.answer).toBe('');
    }
    expect(page.body.next_module).toEqual({ slug: second.slug, title: second.title, week_number: second.week_number });
    expect(page.body.percent_complete).toBe(0);
  });

  it('answers 404 not_found for an unknown slug and 404 not_enrolled before enrolling', async () => {
    const { client } = await enrolledLearner();
    const unknown = await client.get('/api/modules/no-such-module');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'not_found' });

    const stranger = api.client();
    await signIn(stranger, await createTestUser());
    const notEnrolled = await stranger.get(`/api/modules/${first.slug}`);
    expect(notEnrolled.status).toBe(404);
    expect(notEnrolled.body).toEqual({ error: 'not_enrolled' });
  });

  it('refuses a locked module with 403 module_locked naming the module to finish first, for reads and saves', async () => {
    const { client } = await enrolledLearner();
    const locked = content.modules[3];
    const page = await client.get(`/api/modules/${locked.slug}`);
    expect(page.status).toBe(403);
    expect(page.body).toEqual({ error: 'module_locked', requires: { slug: first.slug, title: first.title } });
    expect(JSON.stringify(page.body)).not.toContain(locked.summary);

    const save = await client.put(`/api/modules/${locked.slug}/tasks/${locked.tasks[0].task_id}`, doneBody(locked.tasks[0]));
    expect(save.status).toBe(403);
    expect(save.body).toEqual({ error: 'module_locked', requires: { slug: first.slug, title: first.title } });
  });
});

describe('PUT /api/modules/{slug}/tasks/{task_id}', () => {
  it('saves answers (trimmed) idempotently and records progress activity', async () => {
    const { user, client } = await enrolledLearner();
    const text = first.tasks.find((t) => t.type === 'text' && t.min_items === undefined)!;
    const save = await client.put(`/api/modules/${first.slug}/tasks/${text.task_id}`, { answer: '  Cut onboarding time in half.  ' });
    expect(save.status).toBe(200);
    expect(save.body.task).toMatchObject({ task_id: text.task_id, done: true, answer: 'Cut onboarding time in half.' });
    const again = await client.put(`/api/modules/${first.slug}/tasks/${text.task_id}`, { answer: 'Cut onboarding time in half.' });
    expect(again.status).toBe(200);
    const page = await client.get<ModulePage>(`/api/modules/${first.slug}`);
    expect(page.body.module.tasks.find((t: { task_id: string }) => t.task_id === text.task_id)).toMatchObject({
      answer: 'Cut onboarding time in half.',
      done: true,
    });

    const stored = await getUserById(user.id);
    expect(stored?.last_progress_at).toEqual(expect.any(String));
    expect((stored as unknown as { last_active_day?: string }).last_active_day).toBe(dayOf(new Date()));
  });

  it('refuses bad input with 4xx: unknown task, wrong field for the task type, too long an answer', async () => {
    const { client } = await enrolledLearner();
    const text = first.tasks.find((t) => t.type === 'text')!;
    const checkbox = first.tasks.find((t) => t.type === 'checkbox');
    const unknown = await client.put(`/api/modules/${first.slug}/tasks/nope`, { done: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'not_found' });
    const long = await client.put(`/api/modules/${first.slug}/tasks/${text.task_id}`, { answer: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: 'invalid_request', fields: ['answer'] });
    const noAnswer = await client.put(`/api/modules/${first.slug}/tasks/${text.task_id}`, { done: true });
    expect(noAnswer.status).toBe(400);
    expect((await client.put(`/api/modules/${first.slug}/tasks/${text.task_id}`, { answer: 'a', extra: 1 })).status).toBe(400);
    expect((await client.put(`/api/modules/${first.slug}/tasks/${text.task_id}`, { answer: 42 })).status).toBe(400);
    if (checkbox) {
      const notBoolean = await client.put(`/api/modules/${first.slug}/tasks/${checkbox.task_id}`, { done: 'yes' });
      expect(notBoolean.status).toBe(400);
    }
  });

  it('saves a list task under its minimum but does not count it as done: the module stays open until the list is long enough', async () => {
    const { user, client } = await enrolledLearner();
    const list = first.tasks.find((t) => t.min_items !== undefined && t.required)!;
    expect(list.min_items).toBeGreaterThan(1);
    // every other required task done first: only the list holds the module back
    for (const task of first.tasks.filter((t) => t.required && t !== list)) {
      expect((await client.put(`/api/modules/${first.slug}/tasks/${task.task_id}`, doneBody(task))).status).toBe(200);
    }
    const short = Array.from({ length: list.min_items! - 1 }, (_, i) => `- Achievement ${i + 1}`).join('\n');
    const saved = await client.put(`/api/modules/${first.slug}/tasks/${list.task_id}`, { answer: short });
    expect(saved.status).toBe(200); // saving is never blocked
    expect(saved.body).toMatchObject({
      task: { task_id: list.task_id, done: false, answer: short, min_items: list.min_items },
      module_state: 'open',
      completed_now: false,
      percent_complete: 0,
    });
    const page = await client.get<ModulePage>(`/api/modules/${first.slug}`);
    expect(page.body.module.state).toBe('open');
    expect(page.body.module.tasks.find((t: { task_id: string }) => t.task_id === list.task_id)).toMatchObject({
      done: false,
      answer: short,
      min_items: list.min_items,
    });
    expect(await readEnrollment(user.id)).toMatchObject({ completed_count: 0, percent_complete: 0 });
    expect((await client.get('/api/dashboard/state')).body.percent_complete).toBe(0);

    // blank lines do not count as items
    const padded = `${short}\n\n   \n`;
    expect((await client.put(`/api/modules/${first.slug}/tasks/${list.task_id}`, { answer: padded })).body).toMatchObject({
      task: { done: false },
      completed_now: false,
    });

    const full = `${short}\n- Achievement ${list.min_items}`;
    const done = await client.put(`/api/modules/${first.slug}/tasks/${list.task_id}`, { answer: full });
    expect(done.body).toMatchObject({ task: { done: true }, module_state: 'completed', completed_now: true });
    expect(await readEnrollment(user.id)).toMatchObject({ completed_count: 1 });
  });

  it('completes a module when its required tasks are done, opens the next across a week boundary, and keeps stats', async () => {
    const { user, client } = await enrolledLearner();
    const before = await readStats();
    // Every stats write lands on the same shard: a transaction that updated two shards would
    // then hit one item twice, which DynamoDB refuses (this once failed 1 time in 10).
    vi.spyOn(Math, 'random').mockReturnValue(0);
    // Optional tasks alone never complete a module.
    for (const task of first.tasks.filter((t) => !t.required)) {
      const save = await client.put(`/api/modules/${first.slug}/tasks/${task.task_id}`, doneBody(task));
      expect(save.body).toMatchObject({ module_state: 'open', completed_now: false, percent_complete: 0 });
    }
    const done = await finishModule(client, first.slug);
    const perModule = Math.round((1 / content.modules.length) * 1000) / 10;
    expect(done).toMatchObject({ module_state: 'completed', completed_now: true, percent_complete: perModule });
    expect(done.next_module).toEqual({ slug: second.slug, title: second.title, week_number: second.week_number });
    expect(done.open_module).toMatchObject({ slug: second.slug, state: 'open' });

    // The rest of week 1, then the first module of week 2 is open.
    for (const module of week1.slice(1)) await finishModule(client, module.slug);
    const state = await client.get<DashboardState>('/api/dashboard/state');
    const week2First = content.modules[week1.length];
    expect(state.body.open_module).toEqual({
      module_id: week2First.module_id,
      title: week2First.title,
      position: 1,
      state: 'open',
      slug: week2First.slug,
      week_number: 2,
    });
    expect(state.body.grid[0].modules.every((m: { state: string }) => m.state === 'completed')).toBe(true);
    const percent = Math.round((week1.length / content.modules.length) * 1000) / 10;
    expect(state.body.percent_complete).toBe(percent);
    expect((await client.get('/api/dashboard')).body.percent_complete).toBe(percent);

    const enrollment = await readEnrollment(user.id);
    expect(enrollment).toMatchObject({ completed_count: week1.length, percent_complete: percent, open_module_id: week2First.module_id });
    expect(enrollment.week1_completed_at).toEqual(expect.any(String));

    const after = await readStats();
    expect(after.modules_completed_total - before.modules_completed_total).toBe(week1.length);
    expect(Math.round((after.enrollment_percent_sum - before.enrollment_percent_sum) * 10) / 10).toBe(percent);

    // A completed module can be revised; it does not reopen or count twice.
    const revise = await client.put(
      `/api/modules/${first.slug}/tasks/${first.tasks[0].task_id}`,
      first.tasks[0].type === 'checkbox' ? { done: false } : { answer: 'Revised.' },
    );
    expect(revise.status).toBe(200);
    expect(revise.body).toMatchObject({ module_state: 'completed', completed_now: false, percent_complete: percent });
    expect((await readStats()).modules_completed_total - before.modules_completed_total).toBe(week1.length);
  });

  it('keeps both of two concurrent saves and completes the module exactly once', async () => {
    const { user, client } = await enrolledLearner();
    const before = await readStats();
    const module = content.modules.find((m) => m.tasks.filter((t) => t.required).length >= 2)!;
    // Reach that module first.
    for (const earlier of content.modules.slice(0, module.order)) await finishModule(client, earlier.slug);
    const required = module.tasks.filter((t) => t.required);
    const saves = await Promise.all(
      required.map((task) => client.put<TaskSave>(`/api/modules/${module.slug}/tasks/${task.task_id}`, doneBody(task))),
    );
    expect(saves.map((s) => s.status)).toEqual(required.map(() => 200));
    expect(saves.filter((s) => s.body.completed_now)).toHaveLength(1);
    const page = await client.get<ModulePage>(`/api/modules/${module.slug}`);
    expect(page.body.module.state).toBe('completed');
    for (const task of required)
      expect(page.body.module.tasks.find((t: { task_id: string }) => t.task_id === task.task_id)?.done).toBe(true);
    const after = await readStats();
    expect(after.modules_completed_total - before.modules_completed_total).toBe(module.order + 1);
    expect((await readEnrollment(user.id)).completed_count).toBe(module.order + 1);
  });

  it('completing the last module finishes the program: no open module, 100%, off the reminder index', async () => {
    const { user, client } = await enrolledLearner();
    expect(await finishProgram(client)).toBe(content.modules.length);
    const state = await client.get<DashboardState>('/api/dashboard/state');
    expect(state.body.open_module).toBeNull();
    expect(state.body.percent_complete).toBe(100);
    expect(
      state.body.grid
        .flatMap((w: { modules: Array<{ state: string }> }) => w.modules.map((m) => m.state))
        .every((s: string) => s === 'completed'),
    ).toBe(true);
    expect((await client.get('/api/dashboard')).body).toEqual({ percent_complete: 100, program_title: '4-Week Career Program' });
    const last = content.modules.at(-1)!;
    const page = await client.get(`/api/modules/${last.slug}`);
    expect(page.body).toMatchObject({ next_module: null, percent_complete: 100 });
    const enrollment = await readEnrollment(user.id);
    expect(enrollment).toMatchObject({ status: 'completed', percent_complete: 100, completed_count: content.modules.length });
    expect(enrollment.completed_at).toEqual(expect.any(String));
    expect(enrollment.gsi3pk).toBeUndefined();
    expect(enrollment.open_module_id).toBeUndefined();
  });
});
