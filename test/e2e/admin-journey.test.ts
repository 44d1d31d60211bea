import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, inject, it } from 'vitest';
import type { DashboardState } from '../../shared/program-types';
import type { JsonBody } from '../helpers/api';
import { signedInCookies, sixDigitCode, useBrowser, waitForEmail } from '../helpers/browser';

const browser = useBrowser();
const PASSWORD = 'harbour violet stepping';

/** Talks to the running app like a browser would (JSON + cookies), for the learner's side. */
async function call<T = JsonBody>(path: string, body?: unknown, cookie?: string) {
  const response = await fetch(`${inject('appUrl')}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T, cookie: response.headers.getSetCookie()[0]?.split(';')[0] };
}

async function registerLearner(firstName: string, verify: boolean) {
  const email = `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const since = Date.now();
  expect(
    (await call('/api/auth/register', { first_name: firstName, last_name: 'Hopper', email, password: PASSWORD, passwordConfirm: PASSWORD }))
      .status,
  ).toBe(201);
  if (!verify) return { email, cookie: '' };
  const code = sixDigitCode((await waitForEmail(email, since, /Verify your email/)).text);
  expect((await call('/api/auth/verify-email', { email, code })).status).toBe(200);
  return { email, cookie: await signIn(email) };
}

async function signIn(email: string) {
  const since = Date.now();
  const login = await call('/api/auth/login', { email, password: PASSWORD });
  const code = sixDigitCode((await waitForEmail(email, since, /Your login code/)).text);
  const verified = await call('/api/auth/verify-2fa', { email, code, challenge_id: login.body.challenge_id }, login.cookie);
  expect(verified.status).toBe(200);
  return verified.cookie;
}

it('lets the admin watch metrics, manage a learner, override a module and read the audit log', async () => {
  const learner = await registerLearner('Grace', true);
  expect((await call('/api/enroll', {}, learner.cookie)).status).toBe(200);
  const before = (await call<DashboardState>('/api/dashboard/state', undefined, learner.cookie)).body;
  expect(before.percent_complete).toBe(0);
  const pending = await registerLearner('Pending', false);

  // The admin signs in (password, then the emailed code) and lands on the dashboard
  const page = await browser.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto('/login');
  await page.getByLabel('Email').fill(inject('adminEmail'));
  await page.getByLabel('Password', { exact: true }).fill(inject('adminPassword'));
  const since = Date.now();
  await page.getByRole('button', { name: 'Log in' }).click();
  const code = sixDigitCode((await waitForEmail(inject('adminEmail'), since, /Your login code/)).text);
  await page.getByLabel('2FA code').fill(code); // the sixth digit submits
  await page.waitForURL('**/admin/dashboard');
  await expect.poll(() => page.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).toBe(true);
  for (const card of ['Users', 'Enrollments', 'Avg Completion', 'Active 7d', 'Active 30d', 'Verification Rate', 'Week-1 Drop-off']) {
    await expect.poll(() => page.getByText(card, { exact: true }).first().isVisible(), { message: card }).toBe(true);
  }
  await expect.poll(() => page.getByText('7-Day Actives').first().isVisible()).toBe(true);
  await expect.poll(() => page.getByText('30-Day Actives').first().isVisible()).toBe(true);
  // the two activity charts and, under them, where learners stall (a row per module)
  await expect.poll(() => page.getByRole('heading', { name: 'Where Learners Stall' }).isVisible()).toBe(true);
  await expect.poll(() => page.locator('div.VictoryContainer').count(), { message: 'two activity charts' }).toBe(2);
  expect(await page.locator('.funnel__row').count()).toBeGreaterThan(1);

  // Drill into unverified accounts
  await page.getByText('Click to view unverified accounts').click();
  await page.waitForURL('**/admin/users?*filter=unverified*');
  await expect.poll(() => page.getByRole('cell', { name: pending.email }).isVisible()).toBe(true);
  expect(await page.getByRole('cell', { name: learner.email }).count()).toBe(0);

  // Search the learner and open the drawer
  await page.goto('/admin/users');
  await page.getByLabel('Search').fill(learner.email.slice(0, 14));
  await expect.poll(() => page.getByRole('cell', { name: learner.email }).isVisible()).toBe(true);
  await expect.poll(() => page.url()).toContain('q=');
  await expect.poll(() => page.getByRole('cell', { name: pending.email }).count()).toBe(0);
  // Export CSV downloads exactly the searched list
  const [usersFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  // the search is in the file name; a UTF-8 byte order mark opens it right in Excel
  expect(usersFile.suggestedFilename()).toMatch(/^users-[a-z0-9._@-]+-\d{8}-\d{4}\.csv$/);
  const usersCsv = readFileSync(await usersFile.path(), 'utf8');
  expect(usersCsv.startsWith('\uFEFF')).toBe(true);
  expect(usersCsv.slice(1).split('\r\n')[0]).toBe(
    'id,email,first_name,last_name,status,is_locked,role,created_at,last_login_at,completion_pct,verified,deleted_at,deleted_reason,current_module',
  );
  expect(usersCsv).toContain(learner.email);
  expect(usersCsv).not.toContain(pending.email);
  await page.getByRole('button', { name: learner.email }).click();
  const drawer = page.getByRole('dialog');
  await expect
    .poll(() =>
      drawer
        .getByText(/^User /)
        .first()
        .isVisible(),
    )
    .toBe(true);
  // a native modal <dialog>: the page behind is inert; Escape closes it and focus returns to the row's button
  expect(await drawer.evaluate((el) => el.matches('dialog:modal'))).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => drawer.count()).toBe(0);
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(learner.email);
  await page.keyboard.press('Enter');
  await expect
    .poll(() =>
      drawer
        .getByText(/^User /)
        .first()
        .isVisible(),
    )
    .toBe(true);
  await expect.poll(() => drawer.getByText('No certificate').isVisible()).toBe(true);

  // Edit the first name
  await expect.poll(() => drawer.getByLabel('First name').inputValue()).toBe('Grace');
  await drawer.getByLabel('First name').fill('Gracie');
  await drawer.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(() => drawer.getByText('Profile updated.').isVisible()).toBe(true);

  // Force-complete the open module: the learner's dashboard moves on
  await drawer.getByRole('tab', { name: 'Modules' }).click();
  // The Actions column is reachable at the drawer's width: no sideways scroll inside the drawer.
  const table = drawer.locator('.table-scroll').first();
  await table.waitFor();
  expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
  await drawer.getByRole('button', { name: 'Force complete' }).first().click();
  await expect.poll(() => drawer.getByText('Module marked completed.').isVisible()).toBe(true);
  const after = (await call<DashboardState>('/api/dashboard/state', undefined, learner.cookie)).body;
  expect(after.percent_complete).toBeGreaterThan(0);
  expect(after.open_module!.slug).not.toBe(before.open_module!.slug);
  expect((await call('/api/auth/me', undefined, learner.cookie)).body.first_name).toBe('Gracie');

  // Lock and unlock: a lock ends the learner's session at once
  await drawer.getByRole('tab', { name: 'Security' }).click();
  await drawer.getByRole('button', { name: 'Lock account' }).click();
  // One in-app confirmation, stating the consequence
  const confirmation = page.getByRole('alertdialog');
  await expect.poll(() => confirmation.getByText(/cannot sign in until the account is unlocked/).isVisible()).toBe(true);
  // Escape answers the confirmation only (a modal <dialog> above the drawer's): the drawer stays,
  // focus is back on the button that asked
  await page.keyboard.press('Escape');
  await expect.poll(() => confirmation.count()).toBe(0);
  const lockButton = drawer.getByRole('button', { name: 'Lock account' });
  await expect.poll(() => lockButton.evaluate((element) => element === document.activeElement)).toBe(true);
  await lockButton.click();
  await confirmation.getByRole('button', { name: 'Lock account' }).click();
  await expect.poll(() => drawer.getByText('Account locked.').isVisible()).toBe(true);
  await expect.poll(() => drawer.getByText('Account is locked.').isVisible()).toBe(true);
  expect((await call('/api/dashboard', undefined, learner.cookie)).status).toBe(401);
  await drawer.getByRole('button', { name: 'Unlock account' }).click();
  await expect.poll(() => drawer.getByText('Account unlocked.').isVisible()).toBe(true);

  // Soft-delete and restore
  await drawer.getByRole('button', { name: 'Soft-delete account' }).click();
  await confirmation.getByRole('button', { name: 'Soft-delete account' }).click();
  await expect.poll(() => drawer.getByText('User soft-deleted.').isVisible()).toBe(true);
  await expect.poll(() => drawer.getByRole('button', { name: 'Undo' }).isVisible()).toBe(true);
  await expect.poll(() => drawer.getByText('Account is soft-deleted. Restore to re-enable access.').isVisible()).toBe(true);
  await drawer.getByRole('button', { name: 'Restore account' }).click();
  await expect.poll(() => drawer.getByText('User restored.').isVisible()).toBe(true);
  const cookieAfterRestore = await signIn(learner.email);
  expect((await call('/api/dashboard', undefined, cookieAfterRestore)).status).toBe(200);

  // The audit log, filtered by action
  await page.keyboard.press('Escape');
  await page.goto('/admin/audit');
  await page.getByLabel('Action key').fill('admin.user.lock');
  // Each action reads as a sentence beside its key.
  await expect.poll(() => page.locator('td code', { hasText: /^admin\.user\.lock$/ }).count()).toBeGreaterThan(0);
  await expect
    .poll(() =>
      page
        .getByText(/^Admin locked /)
        .first()
        .isVisible(),
    )
    .toBe(true);
  await expect.poll(() => page.locator('td code', { hasText: /^admin\.user\.unlock$/ }).count()).toBe(0);
  const [auditFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(auditFile.suggestedFilename()).toMatch(/^audit-log-admin\.user\.lock-\d{8}-\d{4}\.csv$/);
  const auditRows = readFileSync(await auditFile.path(), 'utf8')
    .trimEnd()
    .split('\r\n')
    .slice(1);
  expect(auditRows.length).toBeGreaterThan(0);
  expect(auditRows.every((row) => row.split(',')[1] === 'admin.user.lock')).toBe(true);
});

it('shows a learner who opens an admin page that it needs administrator privileges', async () => {
  const learner = await registerLearner('Linus', true);
  const page = await browser.newPage();
  const [name, ...value] = learner.cookie.split('=');
  await page.context().addCookies(signedInCookies(name, value.join('=')));
  await page.goto('/admin/users');
  await expect.poll(() => page.getByText('Admin access required').isVisible()).toBe(true);
  expect(await page.getByText('Your account does not have administrator privileges.').isVisible()).toBe(true);
});
