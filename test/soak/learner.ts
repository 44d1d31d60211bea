import { SoftAuthenticator } from '../helpers/soft-authenticator';
import { codeIn } from './mail';
import { dayOfMs, newAccount, type AccountModel, type ModuleStatus } from './oracle';
import type { Persona } from './population';
import type { World } from './world';

/**
 * What a simulated learner does, through the API as the SPA does it. Each step updates the
 * oracle only on an acknowledgement (2xx); any other answer is checked against what the oracle
 * says the product should answer, and a 5xx leaves the fact unknown until `resync` reads it.
 */
type Body = Record<string, unknown>;
const clientFor = (world: World, persona: Persona) => world.clientOf(`learner-${persona.index}`, persona.ip, persona.userAgent);

/** Where a 4xx nobody expected is noted (a 5xx is recorded by the client, with the faults). */
function unexpected(world: World, what: string, status: number, body: Body): void {
  if (status >= 500) return;
  world.record.violate('acknowledged_state', `${what}: unexpected ${status} ${JSON.stringify(body).slice(0, 200)}`);
}

export async function register(world: World, persona: Persona): Promise<void> {
  const client = clientFor(world, persona);
  const sent = world.clock.now();
  const answer = await client.post('/api/auth/register', {
    first_name: persona.firstName,
    last_name: persona.lastName,
    email: persona.email,
    password: persona.password,
    passwordConfirm: persona.password,
    time_zone: persona.timeZone,
  });
  // a try that failed with a 5xx may have created the account: the retry then finds it
  const createdByAnEarlierTry = answer.retried && answer.status === 409 && answer.body.error === 'verification_pending';
  if (answer.status !== 201 && !createdByAnEarlierTry) return unexpected(world, `register ${persona.email}`, answer.status, answer.body);
  const at = world.clock.now();
  const model = world.oracle.add(
    newAccount({
      email: persona.email,
      firstName: persona.firstName,
      lastName: persona.lastName,
      role: 'learner',
      registeredAt: at,
      timeZone: persona.timeZone,
      frequency: 'daily',
      persona,
    }),
  );
  model.ips.add(persona.ip);
  if (createdByAnEarlierTry) return world.record.count('registrations_acknowledged_on_retry');
  world.oracle.expect({
    action: 'auth.register',
    entityType: 'user',
    entityEmail: persona.email.toLowerCase(),
    actorEmail: persona.email.toLowerCase(),
    at,
    viaStream: false,
  });
  if (persona.verifies) await verifyEmail(world, persona, model, sent);
}

async function verifyEmail(world: World, persona: Persona, model: AccountModel, since: number): Promise<void> {
  const client = clientFor(world, persona);
  const code = codeIn(world.twin.ses.mailbox.latest(persona.email, /Verify your email/, since));
  if (!code) return world.record.violate('mail', `no verification code reached ${persona.email}`);
  const answer = await client.post('/api/auth/verify-email', { email: persona.email, code });
  if (answer.status !== 200) return unexpected(world, `verify ${persona.email}`, answer.status, answer.body);
  model.verified = true;
  model.timeline.push({ at: world.clock.now(), verified: true });
  world.oracle.expect({
    action: 'auth.email_verified',
    entityType: 'user',
    entityEmail: persona.email.toLowerCase(),
    actorEmail: persona.email.toLowerCase(),
    at: world.clock.now(),
    viaStream: false,
  });
}

/** What the product must answer a sign-in of this account, by the oracle. */
function expectedSignIn(model: AccountModel): { status: number; error?: string } {
  if (!model.verified) return { status: 403, error: 'email_not_verified' };
  if (model.status === 'deleted') return { status: 403, error: 'account_deleted' };
  if (model.status === 'locked' || model.locked) return { status: 403, error: 'account_locked' };
  return { status: 200 };
}

/** Password and emailed code; true when signed in. */
export async function signIn(world: World, persona: Persona, model: AccountModel): Promise<boolean> {
  const client = clientFor(world, persona);
  const since = world.clock.now();
  const step1 = await client.post('/api/auth/login', { email: model.email, password: persona.password });
  const expected = expectedSignIn(model);
  if (step1.status !== 200) {
    if (step1.status !== expected.status || step1.body.error !== expected.error)
      unexpected(world, `login ${model.email}`, step1.status, step1.body);
    return false;
  }
  if (expected.status !== 200) {
    world.record.violate('acknowledged_state', `login ${model.email}: answered 200 where the oracle expects ${expected.error}`);
    return false;
  }
  const code = codeIn(world.twin.ses.mailbox.latest(model.email, /login code/i, since));
  if (!code) {
    world.record.count('login_code_missing');
    return false;
  }
  const step2 = await client.post<{ user?: { id: string } }>('/api/auth/verify-2fa', {
    email: model.email,
    code,
    challenge_id: step1.body.challenge_id,
  });
  if (step2.status !== 200 || !step2.body.user) {
    unexpected(world, `verify-2fa ${model.email}`, step2.status, step2.body);
    return false;
  }
  const at = world.clock.now();
  if (!model.id) world.oracle.learnId(model, step2.body.user.id);
  model.signIns += 1;
  world.oracle.activity(model, at);
  world.oracle.expect({
    action: 'auth.login',
    entityType: 'user',
    entityId: model.id,
    actorId: model.id,
    actorEmail: model.email.toLowerCase(),
    at,
    viaStream: true,
  });
  // one sign-in in four is timed: when does its entry become visible (the stream writes it)
  if (world.rng.chance(0.25)) world.probes.push({ userId: model.id!, at, kind: 'sign-in entry (from the stream)' });
  return true;
}

export async function logout(world: World, persona: Persona, model: AccountModel): Promise<void> {
  const client = clientFor(world, persona);
  if (!client.cookies.has('__Host-session')) return;
  const answer = await client.post('/api/auth/logout');
  if (answer.status === 200 && model.id)
    world.oracle.expect({
      action: 'auth.logout',
      entityType: 'user',
      entityId: model.id,
      actorId: model.id,
      actorEmail: model.email.toLowerCase(),
      at: world.clock.now(),
      viaStream: false,
    });
}

interface GridModule {
  module_id: string;
  slug: string;
  state: ModuleStatus;
}
interface DashboardState {
  grid: Array<{ modules: GridModule[] }>;
  open_module: { slug: string; module_id: string } | null;
}

/** Reads the learner's module states as the dashboard shows them (the acknowledged view of their progress). */
export async function readGrid(world: World, persona: Persona, model: AccountModel): Promise<DashboardState | undefined> {
  const answer = await clientFor(world, persona).get<DashboardState>('/api/dashboard/state');
  if (answer.status !== 200) return undefined;
  model.modules = new Map(answer.body.grid.flatMap((week) => week.modules.map((module) => [module.module_id, module.state] as const)));
  return answer.body;
}

export async function enroll(world: World, persona: Persona, model: AccountModel): Promise<void> {
  const answer = await clientFor(world, persona).post('/api/enroll', {});
  if (answer.status !== 200) return unexpected(world, `enroll ${model.email}`, answer.status, answer.body);
  if (model.enrolledAt === undefined) {
    model.enrolledAt = world.clock.now();
    model.timeline.push({ at: model.enrolledAt, enrolled: true });
  }
  await readGrid(world, persona, model);
}

interface LearnerTask {
  task_id: string;
  type: string;
  required: boolean;
  min_items?: number;
}

/** Opens the open module and saves `saves` of its tasks (written answers differ per save: no work may be lost). */
export async function study(world: World, persona: Persona, model: AccountModel, saves: number): Promise<void> {
  const client = clientFor(world, persona);
  const state = await readGrid(world, persona, model);
  if (!state?.open_module) return;
  const slug = state.open_module.slug;
  const page = await client.get<{ module: { module_id: string; tasks: LearnerTask[] } }>(`/api/modules/${slug}`);
  if (page.status !== 200) return unexpected(world, `module ${slug} of ${model.email}`, page.status, page.body);
  const tasks = page.body.module.tasks;
  for (let n = 0; n < saves; n++) {
    const pending = tasks.filter(
      (task) => task.required && !model.saved.get(`${slug}/${task.task_id}`)?.done && !model.saved.get(`${slug}/${task.task_id}`)?.answer,
    );
    const task = pending[0] ?? world.rng.pick(tasks);
    const body =
      task.type === 'checkbox'
        ? { done: true }
        : {
            answer: Array.from(
              { length: task.min_items ?? 1 },
              (_, i) => `${persona.firstName}'s answer ${i + 1} on ${dayOfMs(world.clock.now())} (${world.rng.int(1e6)})`,
            ).join('\n'),
          };
    const save = await client.put<{
      module_state: ModuleStatus;
      completed_now: boolean;
      open_module: { module_id: string } | null;
      module_id: string;
    }>(`/api/modules/${slug}/tasks/${task.task_id}`, body);
    if (save.status !== 200) {
      unexpected(world, `save ${slug}/${task.task_id} of ${model.email}`, save.status, save.body);
      return;
    }
    model.saved.set(`${slug}/${task.task_id}`, body);
    world.oracle.activity(model, world.clock.now());
    model.modules.set(save.body.module_id, save.body.module_state);
    if (save.body.completed_now) {
      if (save.body.open_module) model.modules.set(save.body.open_module.module_id, 'open');
      else model.timeline.push({ at: world.clock.now(), finished: true });
      return;
    }
  }
}

export async function changeSettings(world: World, persona: Persona, model: AccountModel): Promise<void> {
  const client = clientFor(world, persona);
  const frequencies = ['daily', 'weekly', 'off'] as const;
  const change = world.rng.chance(0.5)
    ? { reminder_frequency: world.rng.pick(frequencies.filter((f) => f !== model.frequency)) }
    : { time_zone: world.rng.pick(['Europe/Paris', 'Asia/Singapore', 'America/Denver', 'Africa/Nairobi']) };
  const answer = await client.post<{ reminder_frequency: AccountModel['frequency']; time_zone: string }>(
    '/api/settings/notifications',
    change,
  );
  if (answer.status !== 200) return unexpected(world, `settings ${model.email}`, answer.status, answer.body);
  model.frequency = answer.body.reminder_frequency;
  model.timeZone = answer.body.time_zone;
  model.timeline.push({ at: world.clock.now(), frequency: model.frequency, timeZone: model.timeZone });
}

/** Sets the persona's preferred frequency after the first sign-in (the default is daily). */
export async function setFrequency(
  world: World,
  persona: Persona,
  model: AccountModel,
  frequency: AccountModel['frequency'],
): Promise<void> {
  const answer = await clientFor(world, persona).post<{ reminder_frequency: AccountModel['frequency'] }>('/api/settings/notifications', {
    reminder_frequency: frequency,
  });
  if (answer.status !== 200) return unexpected(world, `frequency ${model.email}`, answer.status, answer.body);
  model.frequency = answer.body.reminder_frequency;
  model.timeline.push({ at: world.clock.now(), frequency: model.frequency });
}

/** The reminder's one-click "stop" (RFC 8058), from the newest reminder's List-Unsubscribe header. */
export async function unsubscribe(world: World, persona: Persona, model: AccountModel): Promise<void> {
  const mail = world.twin.ses.mailbox.to(model.email, /^Next up:/).at(-1);
  const header = mail?.headers.find((h) => h.Name.toLowerCase() === 'list-unsubscribe')?.Value ?? '';
  const url = /<(https?:[^>]+)>/.exec(header)?.[1];
  if (!url) return world.record.violate('mail', `a reminder to ${model.email} has no List-Unsubscribe link`);
  const { pathname, search } = new URL(url);
  const answer = await clientFor(world, persona).post(`${pathname}${search}`, { 'List-Unsubscribe': 'One-Click' });
  if (answer.status !== 200) return unexpected(world, `unsubscribe ${model.email}`, answer.status, answer.body);
  const before = model.frequency;
  model.frequency = 'off';
  model.timeline.push({ at: world.clock.now(), frequency: 'off' });
  world.record.count('unsubscribed');
  if (before !== 'off' && model.id)
    world.oracle.expect({
      action: 'notifications.unsubscribe',
      entityType: 'user',
      entityId: model.id,
      at: world.clock.now(),
      viaStream: false,
    });
}

export async function exportData(world: World, persona: Persona, model: AccountModel): Promise<void> {
  const answer = await clientFor(world, persona).get<Record<string, unknown>>('/api/account/export');
  if (answer.status !== 200) return unexpected(world, `export ${model.email}`, answer.status, answer.body);
  world.record.count('data_exports');
}

export async function selfDelete(world: World, persona: Persona, model: AccountModel): Promise<void> {
  const answer = await clientFor(world, persona).post('/api/account/delete', { password: persona.password });
  if (answer.status !== 200) return unexpected(world, `self-delete ${model.email}`, answer.status, answer.body);
  model.status = 'deleted';
  model.deletedAt = world.clock.now();
  model.deletedBy = 'self';
  model.timeline.push({ at: model.deletedAt, status: 'deleted' });
  if (model.id)
    world.oracle.expect({
      action: 'account.self_delete',
      entityType: 'user',
      entityId: model.id,
      actorId: model.id,
      actorEmail: model.email.toLowerCase(),
      at: model.deletedAt,
      viaStream: false,
    });
}

export async function selfRestore(world: World, persona: Persona, model: AccountModel): Promise<void> {
  const client = clientFor(world, persona);
  const since = world.clock.now();
  const step1 = await client.post('/api/auth/restore', { email: model.email, password: persona.password });
  if (step1.status !== 200) return unexpected(world, `restore ${model.email}`, step1.status, step1.body);
  const code = codeIn(world.twin.ses.mailbox.latest(model.email, /restore/i, since));
  const step2 = await client.post('/api/auth/restore/verify', { email: model.email, code, challenge_id: step1.body.challenge_id });
  if (step2.status !== 200) return unexpected(world, `restore verify ${model.email}`, step2.status, step2.body);
  model.status = 'active';
  model.locked = false;
  model.deletedAt = undefined;
  model.deletedBy = undefined;
  model.timeline.push({ at: world.clock.now(), status: 'active' });
  world.oracle.activity(model, world.clock.now());
  model.signIns += 1;
  // the restore signs the person in: its session is a sign-in, audited from the stream
  if (model.id)
    world.oracle.expect({
      action: 'auth.login',
      entityType: 'user',
      entityId: model.id,
      actorId: model.id,
      actorEmail: model.email.toLowerCase(),
      at: world.clock.now(),
      viaStream: true,
    });
  if (model.id)
    world.oracle.expect({
      action: 'account.self_restore',
      entityType: 'user',
      entityId: model.id,
      actorId: model.id,
      actorEmail: model.email.toLowerCase(),
      at: world.clock.now(),
      viaStream: false,
    });
}

/** The passkeys of the simulated people (their authenticators: what their devices hold). */
const authenticators = new Map<number, SoftAuthenticator>();
const ORIGIN = 'http://localhost:3000';

/** Adds a passkey ("Confirm it's you" with the password), as Settings does. */
export async function addPasskey(world: World, persona: Persona, model: AccountModel): Promise<void> {
  const client = clientFor(world, persona);
  const options = await client.post<{ challenge_id: string; options: { challenge: string; rp: { id?: string }; user: { id: string } } }>(
    '/api/auth/passkeys/registration/options',
    { current_password: persona.password },
  );
  if (options.status !== 200) return unexpected(world, `passkey options of ${model.email}`, options.status, options.body);
  const authenticator = new SoftAuthenticator();
  const added = await client.post('/api/auth/passkeys/registration/verify', {
    challenge_id: options.body.challenge_id,
    name: 'Phone',
    response: authenticator.register(options.body.options, ORIGIN),
  });
  if (added.status !== 201) return unexpected(world, `passkey of ${model.email}`, added.status, added.body);
  authenticators.set(persona.index, authenticator);
  world.record.count('passkeys_added');
  const by = { entityType: 'user', entityId: model.id, actorId: model.id, actorEmail: model.email.toLowerCase(), viaStream: false };
  world.oracle.expect({ action: 'auth.passkey_registration_started', ...by, at: world.clock.now() });
  world.oracle.expect({ action: 'auth.passkey_added', ...by, at: world.clock.now() });
}

/** Signs in with the person's passkey (no password, no code); true when signed in. */
export async function passkeySignIn(world: World, persona: Persona, model: AccountModel): Promise<boolean> {
  const authenticator = authenticators.get(persona.index);
  if (!authenticator) return false;
  const client = clientFor(world, persona);
  const options = await client.post<{ challenge_id: string; options: { challenge: string; rpId?: string } }>(
    '/api/auth/passkeys/authentication/options',
    {},
  );
  if (options.status !== 200) {
    unexpected(world, `passkey sign-in options of ${model.email}`, options.status, options.body);
    return false;
  }
  const answer = await client.post<{ user?: { id: string } }>('/api/auth/passkeys/authentication/verify', {
    challenge_id: options.body.challenge_id,
    response: authenticator.authenticate(options.body.options, ORIGIN),
  });
  const expected = expectedSignIn(model);
  if (answer.status !== 200) {
    // a locked or deleted account is refused with the same answer as a wrong passkey: no account is told apart
    if (expected.status === 200) unexpected(world, `passkey sign-in of ${model.email}`, answer.status, answer.body);
    return false;
  }
  if (expected.status !== 200) {
    world.record.violate(
      'acknowledged_state',
      `passkey sign-in of ${model.email}: answered 200 where the oracle expects ${expected.error}`,
    );
    return false;
  }
  model.signIns += 1;
  world.record.count('passkey_sign_ins');
  world.oracle.activity(model, world.clock.now());
  world.oracle.expect({
    action: 'auth.login',
    entityType: 'user',
    entityId: model.id,
    actorId: model.id,
    actorEmail: model.email.toLowerCase(),
    at: world.clock.now(),
    viaStream: true,
  });
  if (world.rng.chance(0.25)) world.probes.push({ userId: model.id!, at: world.clock.now(), kind: 'sign-in entry (from the stream)' });
  return true;
}

/** One visit on a day: sign in (a passkey where the person has one), enroll if not yet, study, now and then change settings, sign out. */
export async function visit(world: World, persona: Persona, model: AccountModel): Promise<void> {
  const signedIn = authenticators.has(persona.index) ? await passkeySignIn(world, persona, model) : await signIn(world, persona, model);
  if (!signedIn) return;
  if (persona.usesPasskey && !authenticators.has(persona.index)) await addPasskey(world, persona, model);
  if (model.signIns === 1 && persona.frequency !== 'daily') await setFrequency(world, persona, model, persona.frequency);
  if (persona.enrolls && model.enrolledAt === undefined) await enroll(world, persona, model);
  if (model.enrolledAt !== undefined) await study(world, persona, model, 1 + world.rng.int(4));
  if (world.rng.chance(persona.settingsChurn)) await changeSettings(world, persona, model);
  if (persona.exportsData && world.rng.chance(0.1)) await exportData(world, persona, model);
  await logout(world, persona, model);
}
