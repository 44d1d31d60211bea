import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect, inject, it } from 'vitest';
import { sixDigitCode, useBrowser, waitForEmail } from '../helpers/browser';

/** axe-core's WCAG 2 A/AA rules on the main screens: no serious or critical violation. */
const browser = useBrowser();
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

async function violations(page: Page) {
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  });
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

async function signedInCookie() {
  const email = `a11y-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'granite meadow whistle';
  const post = async (path: string, body: unknown, cookie?: string) => {
    const response = await fetch(`${inject('appUrl')}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
    return { body: await response.json(), cookie: response.headers.getSetCookie()[0]?.split(';')[0] };
  };
  let since = Date.now();
  await post('/api/auth/register', { first_name: 'Alan', last_name: 'Turing', email, password, passwordConfirm: password });
  await post('/api/auth/verify-email', { email, code: sixDigitCode((await waitForEmail(email, since, /Verify your email/)).text) });
  since = Date.now();
  const login = await post('/api/auth/login', { email, password });
  const code = sixDigitCode((await waitForEmail(email, since, /Your login code/)).text);
  const session = await post('/api/auth/verify-2fa', { email, code, challenge_id: login.body.challenge_id });
  await post('/api/enroll', {}, session.cookie);
  return session.cookie!;
}

it('has no serious accessibility violations on the public screens', async () => {
  const page = await browser.newPage();
  for (const [path, ready] of [
    ['/', 'Secure career insights'],
    ['/login', 'Forgot password?'],
    ['/register', 'Confirm password'],
    ['/forgot-password', 'Send reset link'],
  ]) {
    await page.goto(path);
    await page.getByText(ready).first().waitFor();
    expect(await violations(page), path).toEqual([]);
  }
});

it('has no serious accessibility violations on the learner screens', async () => {
  const cookie = await signedInCookie();
  const page = await browser.newPage();
  const [name, ...value] = cookie.split('=');
  await page.context().addCookies([{ name, value: value.join('='), domain: 'localhost', path: '/', secure: true, httpOnly: true, sameSite: 'Lax' }]);
  for (const [path, ready] of [
    ['/dashboard', 'Resume your next module'],
    ['/modules/know-your-strengths', 'Your tasks'],
    ['/settings', 'Notification preferences'],
  ]) {
    await page.goto(path);
    await page.getByText(ready).first().waitFor();
    expect(await violations(page), path).toEqual([]);
  }
});

it('has no serious accessibility violations on the admin screens', async () => {
  const email = inject('adminEmail');
  const since = Date.now();
  const login = await fetch(`${inject('appUrl')}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: inject('adminPassword') }),
  }).then((r) => r.json());
  const code = sixDigitCode((await waitForEmail(email, since, /Your login code/)).text);
  const verified = await fetch(`${inject('appUrl')}/api/auth/verify-2fa`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, code, challenge_id: login.challenge_id }),
  });
  const [name, ...value] = verified.headers.getSetCookie()[0].split(';')[0].split('=');
  const page = await browser.newPage();
  await page.context().addCookies([{ name, value: value.join('='), domain: 'localhost', path: '/', secure: true, httpOnly: true, sameSite: 'Lax' }]);
  for (const [path, ready] of [
    ['/admin/dashboard', '30-Day Actives'],
    ['/admin/users', 'Rows per page'],
    ['/admin/audit', 'Entity type'],
  ]) {
    await page.goto(path);
    await page.getByText(ready).first().waitFor();
    await page.waitForTimeout(300); // let the data render
    expect(await violations(page), path).toEqual([]);
  }
  // the user drawer, open on the first row
  await page.goto(`/admin/users?q=${encodeURIComponent(email)}`);
  await page.getByRole('cell', { name: email }).click();
  await page.getByRole('dialog').getByText('Account facts').waitFor();
  expect(await violations(page), 'user drawer').toEqual([]);
});
