import { afterAll, expect, inject, it } from 'vitest';
import type { ProgramDraft } from '../../shared/program-authoring';
import type { ModulePage } from '../../shared/program-types';
import type { JsonBody } from '../helpers/api';
import { enrolledLearnerCookie, seriousA11yViolations, signedInCookies, sixDigitCode, useBrowser, waitForEmail } from '../helpers/browser';
import type { Page } from 'playwright-core';

const browser = useBrowser();
const SLUG = 'know-your-strengths';

async function call<T = JsonBody>(method: string, path: string, cookie: string, body?: unknown) {
  const response = await fetch(`${inject('appUrl')}${path}`, {
    method,
    headers: { 'content-type': 'application/json', cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T, cookie: response.headers.getSetCookie()[0]?.split(';')[0] };
}

async function adminCookie() {
  const email = inject('adminEmail');
  const since = Date.now();
  const login = await call('POST', '/api/auth/login', '', { email, password: inject('adminPassword') });
  const code = sixDigitCode((await waitForEmail(email, since, /Your login code/)).text);
  // the challenge is bound to the browser that passed the password step: its cookie rides along
  return (
    (await call('POST', '/api/auth/verify-2fa', login.cookie ?? '', { email, code, challenge_id: login.body.challenge_id })).cookie ?? ''
  );
}

async function pageWith(cookie: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage(viewport);
  const [name, ...value] = cookie.split('=');
  await page.context().addCookies(signedInCookies(name, value.join('=')));
  return page;
}

let admin = '';
// The later test files see the bundled content again: version 1 restored and published.
afterAll(async () => {
  if (!admin) return;
  const draft = (await call<ProgramDraft>('GET', '/api/admin/program/draft', admin)).body;
  if (draft.published_version < 2) return;
  const restored = await call<ProgramDraft>('POST', '/api/admin/program/versions/1/restore', admin, { revision: draft.revision });
  await call('POST', '/api/admin/program/publish', admin, {
    revision: restored.body.revision,
    change_note: 'Back to the bundled content.',
  });
});

it('lets an admin edit, preview and publish a module; a signed-in learner sees it change and keeps their completions', async () => {
  // A learner who completed the first module
  const learner = await enrolledLearnerCookie('author', { first: 'Ada', last: 'Byron' }, 'lantern orchard pebble');
  const module = (await call<ModulePage>('GET', `/api/modules/${SLUG}`, learner)).body.module;
  for (const task of module.tasks.filter((t) => t.required)) {
    const body =
      task.type === 'checkbox'
        ? { done: true }
        : { answer: Array.from({ length: task.min_items ?? 1 }, (_, i) => `Item ${i + 1}`).join('\n') };
    expect((await call('PUT', `/api/modules/${SLUG}/tasks/${task.task_id}`, learner, body)).status).toBe(200);
  }
  const required = module.tasks.filter((t) => t.required).length;
  const learnerPage = await pageWith(learner);
  await learnerPage.goto(`/modules/${SLUG}`);
  await expect.poll(() => learnerPage.getByRole('heading', { level: 1, name: module.title }).isVisible()).toBe(true);

  // The admin edits the title; the preview shows it as the learner page would
  admin = await adminCookie();
  const page = await pageWith(admin);
  await page.goto('/admin/program');
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Program', exact: true }).waitFor();
  await page.getByRole('heading', { name: `Edit: ${module.title}` }).waitFor();
  expect(await seriousA11yViolations(page), '/admin/program at 1280 px').toEqual([]);
  const title = `${module.title}, with proof`;
  await page.getByLabel('Title', { exact: true }).fill(title);
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect.poll(() => preview.getByRole('heading', { level: 1, name: title }).isVisible()).toBe(true);
  // A Markdown link in a section renders as a link, in the preview as on the learner page
  const firstText = page.getByLabel('Section 1 text');
  await firstText.fill(`${await firstText.inputValue()}\n\nMore in [the strengths guide](https://example.com/strengths).`);
  await expect
    .poll(() => preview.locator('a', { hasText: 'the strengths guide' }).getAttribute('href'))
    .toBe('https://example.com/strengths');
  // Removing a module asks first; "Keep it" keeps it
  await page.getByRole('button', { name: `Remove ${title}`, exact: true }).click();
  await page
    .getByRole('group', { name: `Remove ${title}?` })
    .getByRole('button', { name: 'Keep it' })
    .click();
  await expect.poll(() => page.getByRole('group', { name: `Remove ${title}?` }).count()).toBe(0);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect.poll(() => page.getByText('Draft saved.').isVisible()).toBe(true);
  await page.getByLabel('Change note (required)').fill('Clearer title for the first module');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect.poll(() => page.getByText(/^Version \d+ published\. Learners see it now\.$/).isVisible()).toBe(true);
  // The version history says what the new version changed, per module
  const published = Number(/Version (\d+) published/.exec((await page.getByText(/^Version \d+ published/).textContent()) ?? '')?.[1]);
  await page.getByRole('button', { name: `What changed in version ${published}` }).click();
  await expect.poll(() => page.getByText(`${title}: edited (title, sections)`).isVisible()).toBe(true);

  // The learner's page changes; their completions stay
  await learnerPage.reload();
  await expect.poll(() => learnerPage.getByRole('heading', { level: 1, name: title }).isVisible()).toBe(true);
  await expect.poll(() => learnerPage.getByText(`${required} of ${required} required tasks done`).isVisible()).toBe(true);
  expect(await learnerPage.getByRole('link', { name: 'the strengths guide' }).getAttribute('rel')).toBe('noopener noreferrer');

  // The audit log shows the publish, readably
  await page.goto('/admin/audit');
  await page.getByLabel('Action key').fill('admin.program.publish');
  await expect.poll(() => page.getByText('Admin published a new program version').first().isVisible()).toBe(true);

  // Usable on a phone
  const phone = await pageWith(admin, { width: 390, height: 844 });
  await phone.goto('/admin/program');
  await phone.getByRole('heading', { name: `Edit: ${title}` }).waitFor();
  expect(await seriousA11yViolations(phone), '/admin/program on a phone').toEqual([]);
});

it('keeps an author’s unsaved edits through a reload and offers them back', async () => {
  admin ||= await adminCookie();
  const page = await pageWith(admin);
  await page.goto('/admin/program');
  await page.getByRole('heading', { name: /^Edit: / }).waitFor();
  const title = page.getByLabel('Title', { exact: true });
  const original = await title.inputValue();
  const unsaved = `${original}, unsaved`;
  await title.fill(unsaved);
  const text = page.getByLabel('Section 1 text');
  const reading = `${await text.inputValue()}\n\nA long paragraph the author wrote and has not saved yet.`;
  await text.fill(reading);
  await page.getByRole('heading', { name: `Edit: ${unsaved}` }).click();

  // Reloading asks first (the browser's own question), then the edits are offered back
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  });
  await page.reload();
  expect(asked).toEqual(['beforeunload']);
  await page.getByRole('heading', { name: /^You have unsaved edits from / }).waitFor();
  await page.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect.poll(() => title.inputValue()).toBe(unsaved);
  expect(await text.inputValue()).toBe(reading);
  expect(await page.getByRole('button', { name: 'Save draft' }).isEnabled()).toBe(true);

  // Discarding them gives the saved draft back
  await page.reload();
  expect(asked).toEqual(['beforeunload', 'beforeunload']);
  await page.getByRole('button', { name: 'Discard', exact: true }).click();
  await expect.poll(() => title.inputValue()).toBe(original);
});

it('asks before leaving the program editor with unsaved edits', async () => {
  admin ||= await adminCookie();
  const page = await pageWith(admin);
  await page.goto('/admin/program');
  await page.getByRole('heading', { name: /^Edit: / }).waitFor();
  const title = page.getByLabel('Title', { exact: true });
  const unsaved = `${await title.inputValue()}, half written`;
  await title.fill(unsaved);

  const audit = page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit log' });
  await audit.click();
  const leave = page.getByRole('alertdialog', { name: 'Leave with unsaved edits?' });
  await leave.waitFor();
  expect(await seriousA11yViolations(page), 'the leave question').toEqual([]);
  expect(new URL(page.url()).pathname).toBe('/admin/program');
  await leave.getByRole('button', { name: 'Stay and keep editing' }).click();
  await expect.poll(() => leave.count()).toBe(0);
  expect(await title.inputValue()).toBe(unsaved);

  await audit.click();
  await leave.getByRole('button', { name: 'Leave', exact: true }).click();
  await page.waitForURL('**/admin/audit');
  // the edits stay in this browser until the author decides
  await page.goto('/admin/program');
  await page.getByRole('button', { name: 'Discard', exact: true }).click();
  await page.getByRole('heading', { name: /^Edit: / }).waitFor();
});
