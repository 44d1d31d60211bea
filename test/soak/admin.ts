import { codeIn } from './mail';
import { isFinished, type AccountModel, type AuditExpectation, type ModuleStatus } from './oracle';
import { auditViewsOf, findIn, type AuditRow } from './audit-views';
import type { World } from './world';

/**
 * What the simulated administrator does through the console's API: signs in, searches, edits
 * profiles, locks and unlocks, soft-deletes, restores and hard-deletes, overrides module
 * progress, publishes program versions. Every change it makes is looked up in the person's
 * Audit tab and in every filter right after the answer (read-your-writes, in every run).
 */
type Body = Record<string, unknown>;

/**
 * Signs the administrator in (password and emailed code) unless their session still answers.
 * A refusal is a violation, except while SES refuses mail (a spent quota, a throttle): then no
 * code can arrive, as for any person, and the step waits for the next hour.
 */
export async function adminSignIn(world: World): Promise<boolean> {
  const { client, email, password } = world.admin;
  if (client.cookies.has('__Host-session') && (await client.get('/api/auth/me')).status === 200) return true;
  const since = world.clock.now();
  const step1 = await client.post('/api/auth/login', { email, password });
  const mailRefused = world.faults.active('ses_quota_spent', world.hour) || world.faults.active('ses_throttle', world.hour);
  if (step1.status !== 200) {
    if (mailRefused) world.record.count('admin_sign_ins_refused_while_ses_refused_mail');
    else
      world.record.violate(
        'acknowledged_state',
        `the administrator's sign-in answered ${step1.status} ${JSON.stringify(step1.body).slice(0, 120)}`,
      );
    return false;
  }
  const code = codeIn(world.twin.ses.mailbox.latest(email, /login code/i, since));
  const step2 = await client.post<{ user?: { id: string } }>('/api/auth/verify-2fa', {
    email,
    code,
    challenge_id: step1.body.challenge_id,
  });
  if (step2.status !== 200 || !step2.body.user) {
    world.record.violate(
      'acknowledged_state',
      `the administrator's code answered ${step2.status} ${JSON.stringify(step2.body).slice(0, 120)}`,
    );
    return false;
  }
  const model = world.oracle.account(email);
  if (model) {
    if (!model.id) world.oracle.learnId(model, step2.body.user.id);
    model.signIns += 1;
    world.oracle.activity(model, world.clock.now());
    world.oracle.expect({
      action: 'auth.login',
      entityType: 'user',
      entityId: model.id,
      actorId: model.id,
      actorEmail: email,
      at: world.clock.now(),
      viaStream: true,
    });
  }
  return true;
}

function adminModel(world: World): AccountModel {
  return world.oracle.account(world.admin.email)!;
}

/** The expectation of an admin action on a learner, checked at once in every view that shows it. */
async function expectAndCheckAtOnce(world: World, expectation: AuditExpectation, subject: AccountModel): Promise<void> {
  world.oracle.expect(expectation);
  const views = auditViewsOf(expectation, subject.status === 'erased', world);
  for (const view of views) {
    const rows = await readView(world, view.path);
    const found = rows && findIn(rows, expectation);
    world.record.count('read_your_writes_checks');
    if (found) world.record.lag(`transactional entry (${view.name})`, 0);
    else
      world.record.violate(
        'audit_read_your_writes',
        `${expectation.action} on ${expectation.entityId} not in ${view.name} right after the answer (${view.path})`,
      );
  }
}

async function readView(world: World, path: string): Promise<AuditRow[] | undefined> {
  const answer = await world.admin.client.get<{ items: AuditRow[] }>(path);
  return answer.status === 200 ? answer.body.items : undefined;
}

/** A learner with a known id in one of the given states, picked by the seed. */
function pickLearner(world: World, where: (model: AccountModel) => boolean): AccountModel | undefined {
  const candidates = [...world.oracle.accounts.values()].filter((model) => model.role === 'learner' && model.id && where(model));
  return candidates.length ? world.rng.pick(candidates) : undefined;
}

/** Learns the ids of registered accounts nobody signed in to yet (never verified), through the console's search. */
export async function learnIds(world: World): Promise<void> {
  for (const model of world.oracle.accounts.values()) {
    if (model.id || model.status === 'erased') continue;
    const answer = await world.admin.client.get<{ items: Array<{ id: string; email: string }> }>(
      `/api/admin/users?query=${encodeURIComponent(model.email)}`,
    );
    const row =
      answer.status === 200 ? answer.body.items.find((item) => item.email.toLowerCase() === model.email.toLowerCase()) : undefined;
    if (row) world.oracle.learnId(model, row.id);
  }
}

const actor = (world: World) => ({ actorId: adminModel(world).id, actorEmail: world.admin.email });

export async function editProfile(world: World): Promise<void> {
  const model = pickLearner(world, (m) => m.status === 'active' || m.status === 'locked');
  if (!model) return;
  const changeEmail = world.rng.chance(0.3);
  const suffix = world.rng.int(1e6);
  const changes: Record<string, string> = {
    first_name: `${model.firstName.replace(/-\d+$/, '')}-${suffix}`,
    last_name: `${model.lastName}`,
  };
  if (changeEmail) changes.email = `moved${suffix}.${model.email}`;
  const answer = await world.admin.client.patch(`/api/admin/users/${model.id}`, changes);
  if (answer.status !== 200) return unexpectedAdmin(world, `edit ${model.email}`, answer.status, answer.body);
  model.firstName = changes.first_name;
  model.names.push(changes.first_name);
  if (changeEmail) {
    world.oracle.changeEmail(model, changes.email);
    // a new address must be verified again
    model.verified = false;
    model.timeline.push({ at: world.clock.now(), verified: false });
  }
  world.record.count('admin_edits');
  await expectAndCheckAtOnce(
    world,
    { action: 'admin.user.update', entityType: 'user', entityId: model.id, ...actor(world), at: world.clock.now(), viaStream: false },
    model,
  );
}

export async function lockOrUnlock(world: World): Promise<void> {
  const model = pickLearner(world, (m) => m.status === 'active' || m.status === 'locked');
  if (!model) return;
  const lock = model.status === 'active';
  const answer = await world.admin.client.post(`/api/admin/users/${model.id}/${lock ? 'lock' : 'unlock'}`, {});
  // a try that failed with a 5xx may have done it: the retry is then refused as already done
  const doneByAnEarlierTry = answer.retried && answer.status === 409 && answer.body.error === (lock ? 'already_locked' : 'not_locked');
  if (answer.status !== 200 && !doneByAnEarlierTry)
    return unexpectedAdmin(world, `${lock ? 'lock' : 'unlock'} ${model.email}`, answer.status, answer.body);
  model.status = lock ? 'locked' : 'active';
  model.locked = lock;
  model.timeline.push({ at: world.clock.now(), status: model.status });
  world.record.count(lock ? 'admin_locks' : 'admin_unlocks');
  await expectAndCheckAtOnce(
    world,
    {
      action: lock ? 'admin.user.lock' : 'admin.user.unlock',
      entityType: 'user',
      entityId: model.id,
      ...actor(world),
      at: world.clock.now(),
      viaStream: false,
    },
    model,
  );
}

export async function softDelete(world: World): Promise<void> {
  const model = pickLearner(world, (m) => m.status === 'active' || m.status === 'locked');
  if (!model) return;
  const answer = await world.admin.client.post(`/api/admin/users/${model.id}/soft-delete`, { reason: 'soak: requested by the learner' });
  const doneByAnEarlierTry = answer.retried && answer.status === 409 && answer.body.error === 'already_deleted';
  if (answer.status !== 200 && !doneByAnEarlierTry) return unexpectedAdmin(world, `soft-delete ${model.email}`, answer.status, answer.body);
  model.status = 'deleted';
  model.deletedAt = world.clock.now();
  model.deletedBy = 'admin';
  model.timeline.push({ at: model.deletedAt, status: 'deleted' });
  world.record.count('admin_soft_deletes');
  await expectAndCheckAtOnce(
    world,
    { action: 'admin.user.soft_delete', entityType: 'user', entityId: model.id, ...actor(world), at: world.clock.now(), viaStream: false },
    model,
  );
}

export async function restore(world: World): Promise<void> {
  const model = pickLearner(world, (m) => m.status === 'deleted' && m.deletedBy === 'admin');
  if (!model) return;
  const answer = await world.admin.client.post(`/api/admin/users/${model.id}/restore`, {});
  const doneByAnEarlierTry = answer.retried && answer.status === 409 && answer.body.error === 'not_deleted';
  if (answer.status !== 200 && !doneByAnEarlierTry) return unexpectedAdmin(world, `restore ${model.email}`, answer.status, answer.body);
  model.status = 'active';
  model.locked = false;
  model.deletedAt = undefined;
  model.deletedBy = undefined;
  model.timeline.push({ at: world.clock.now(), status: 'active' });
  world.record.count('admin_restores');
  await expectAndCheckAtOnce(
    world,
    { action: 'admin.user.restore', entityType: 'user', entityId: model.id, ...actor(world), at: world.clock.now(), viaStream: false },
    model,
  );
}

/** Hard-deletes an account whose retention has passed (the admin's way; the daily job does the rest). */
export async function hardDelete(world: World): Promise<void> {
  const retentionMs = world.retentionDays * 24 * 3600 * 1000;
  const model = pickLearner(
    world,
    (m) => m.status === 'deleted' && m.deletedAt !== undefined && world.clock.now() - m.deletedAt > retentionMs + 3600_000,
  );
  if (!model) return;
  const answer = await world.admin.client.delete(`/api/admin/users/${model.id}?confirm_email=${encodeURIComponent(model.email)}`);
  if (answer.status === 404) return; // the daily erasure was first
  if (answer.status !== 200 && answer.status !== 202)
    return unexpectedAdmin(world, `hard delete ${model.email}`, answer.status, answer.body);
  model.status = 'erased';
  model.erasedAt = world.clock.now();
  world.record.count('admin_hard_deletes');
  world.oracle.expect({
    action: 'admin.user.hard_delete',
    entityType: 'user',
    entityId: model.id,
    ...actor(world),
    at: world.clock.now(),
    viaStream: false,
  });
}

/** A module override: complete the open module for a learner, or reopen a completed one. */
export async function overrideModule(world: World): Promise<void> {
  const model = pickLearner(world, (m) => m.enrolledAt !== undefined && m.status !== 'erased' && m.modules.size > 0);
  if (!model) return;
  const open = [...model.modules].find(([, state]) => state === 'open');
  const completed = [...model.modules].filter(([, state]) => state === 'completed');
  const reopen = !open || (completed.length > 0 && world.rng.chance(0.3));
  const moduleId = reopen ? completed.at(-1)?.[0] : open?.[0];
  if (!moduleId) return;
  const route = reopen ? 'reopen' : 'force-complete';
  const answer = await world.admin.client.post(`/api/admin/modules/${route}`, { user_id: model.id, module_id: moduleId });
  if (answer.status !== 200) return unexpectedAdmin(world, `${route} ${moduleId} of ${model.email}`, answer.status, answer.body);
  world.record.count('admin_module_overrides');
  await expectAndCheckAtOnce(
    world,
    {
      action: reopen ? 'admin.module.reopen' : 'admin.module.force_complete',
      entityType: 'user',
      entityId: model.id,
      ...actor(world),
      at: world.clock.now(),
      viaStream: false,
    },
    model,
  );
  // The override changed what the learner sees, possibly whether they have finished: reopening
  // the last module brings reminders back, completing it stops them. The account's detail is
  // the acknowledged state from now on.
  model.modules.set(moduleId, reopen ? 'open' : 'completed');
  model.modulesStale = true;
  const detail = await world.admin.client.get<{ enrollments: Array<{ modules: Array<{ module_id: string; status: ModuleStatus }> }> }>(
    `/api/admin/users/${model.id}`,
  );
  if (detail.status !== 200) return;
  const modules = detail.body.enrollments[0]?.modules ?? [];
  model.modules = new Map(modules.map((module) => [module.module_id, module.status]));
  model.modulesStale = false;
  const finished = modules.length > 0 && modules.every((module) => module.status === 'completed');
  if (finished !== isFinished(model)) model.timeline.push({ at: world.clock.now(), finished });
}

/** Publishes a new program version with an edited module summary (no structural change). */
export async function publishVersion(world: World): Promise<void> {
  const { client } = world.admin;
  const draft = await client.get<{
    revision: number;
    content: { weeks?: unknown; modules?: Array<Record<string, unknown>> } & Record<string, unknown>;
  }>('/api/admin/program/draft');
  if (draft.status !== 200) return unexpectedAdmin(world, 'read the draft', draft.status, draft.body);
  const content = structuredClone(draft.body.content) as Record<string, unknown>;
  const summaryEdited = editFirstSummary(content, `Refreshed on ${new Date(world.clock.now()).toISOString().slice(0, 10)}.`);
  if (!summaryEdited) return world.record.violate('harness', 'the program content has no module summary to edit');
  const saved = await client.put<{ revision: number }>('/api/admin/program/draft', { revision: draft.body.revision, content });
  if (saved.status !== 200) return unexpectedAdmin(world, 'save the draft', saved.status, saved.body);
  const published = await client.post<{ version: number }>('/api/admin/program/publish', {
    revision: saved.body.revision,
    change_note: 'Soak: a refreshed summary.',
  });
  if (published.status !== 200) return unexpectedAdmin(world, 'publish', published.status, published.body);
  world.oracle.published.push(published.body.version);
  world.record.count('program_versions_published');
  world.oracle.expect({
    action: 'admin.program.publish',
    entityType: 'program',
    entityId: undefined,
    ...actor(world),
    at: world.clock.now(),
    viaStream: false,
  });
}

/** Appends to the first module summary found in the content document; false when there is none. */
function editFirstSummary(node: unknown, addition: string): boolean {
  if (Array.isArray(node)) return node.some((child) => editFirstSummary(child, addition));
  if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if (typeof record.summary === 'string' && typeof record.slug === 'string') {
      record.summary = `${record.summary.replace(/ Refreshed on \d{4}-\d{2}-\d{2}\.$/, '')} ${addition}`;
      return true;
    }
    return Object.values(record).some((child) => editFirstSummary(child, addition));
  }
  return false;
}

export async function searchUsers(world: World): Promise<void> {
  const model = pickLearner(world, (m) => m.status !== 'erased');
  if (!model) return;
  const answer = await world.admin.client.get<{ items: Array<{ id: string }> }>(
    `/api/admin/users?query=${encodeURIComponent(model.email.slice(0, 6))}`,
  );
  if (answer.status !== 200) return unexpectedAdmin(world, 'search', answer.status, answer.body);
  world.record.count('admin_searches');
}

function unexpectedAdmin(world: World, what: string, status: number, body: Body): void {
  if (status >= 500) return;
  world.record.violate('acknowledged_state', `admin ${what}: unexpected ${status} ${JSON.stringify(body).slice(0, 200)}`);
}
