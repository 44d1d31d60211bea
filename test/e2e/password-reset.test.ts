import { randomUUID } from 'node:crypto';
import { expect, inject, it } from 'vitest';
import { sixDigitCode, useBrowser, waitForEmail } from '../helpers/browser';

const browser = useBrowser();
const OLD_PASSWORD = 'pebble saffron lantern';
const NEW_PASSWORD = 'marble thistle compass';

/** A verified account, made through the API as the register screen would. */
async function verifiedAccount() {
  const email = `reset-${randomUUID().slice(0, 8)}@example.com`;
  const post = (path: string, body: unknown) =>
    fetch(`${inject('appUrl')}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const since = Date.now();
  expect(
    (
      await post('/api/auth/register', {
        first_name: 'Rosa',
        last_name: 'Parks',
        email,
        password: OLD_PASSWORD,
        passwordConfirm: OLD_PASSWORD,
      })
    ).status,
  ).toBe(201);
  const code = sixDigitCode((await waitForEmail(email, since, /Verify your email/)).text);
  expect((await post('/api/auth/verify-email', { email, code })).status).toBe(200);
  return email;
}

it('resets a forgotten password through the emailed link, then signs in with the new one', async () => {
  const email = await verifiedAccount();
  const page = await browser.newPage();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.waitForURL('**/forgot-password');
  // The login page stays on screen while the next page's code loads: fill the reset form's field.
  await page.getByRole('form', { name: 'Forgot password' }).getByLabel('Email').fill(email);
  const since = Date.now();
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect.poll(() => page.getByText("If an account exists, we've sent a reset link.").isVisible()).toBe(true);
  await expect.poll(() => page.getByRole('button', { name: 'Send again' }).isVisible()).toBe(true);

  const mail = await waitForEmail(email, since, /Reset your password/);
  const link = /(http\S+\/reset-password\?token=\S+)/.exec(mail.text)![1];
  expect(link.startsWith(`${inject('appUrl')}/reset-password?token=`)).toBe(true);
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect.poll(() => page.getByRole('link', { name: 'Continue to login' }).isVisible()).toBe(true);

  // The old password no longer works; the new one does (with its emailed code)
  await page.getByRole('link', { name: 'Continue to login' }).click();
  await page.waitForURL('**/login');
  // the address changes first; the previous page stays until the login chunk has loaded
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(OLD_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect.poll(() => page.getByText('Invalid email or password.').isVisible()).toBe(true);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  const loginSince = Date.now();
  await page.getByRole('button', { name: 'Log in' }).click();
  const code = sixDigitCode((await waitForEmail(email, loginSince, /Your login code/)).text);
  await page.getByLabel('2FA code').fill(code); // the sixth digit submits
  await page.waitForURL(/\/(enroll|dashboard)$/);

  // A used link is dead
  await page.goto(link);
  await expect.poll(() => page.getByText('This password reset link is invalid or has expired.').isVisible()).toBe(true);
});

it('shows "Incorrect or expired code." for a wrong login code', async () => {
  const email = await verifiedAccount();
  const page = await browser.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(OLD_PASSWORD);
  const since = Date.now();
  await page.getByRole('button', { name: 'Log in' }).click();
  const code = sixDigitCode((await waitForEmail(email, since, /Your login code/)).text);
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel('2FA code').fill(wrong); // the sixth digit submits
  await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Incorrect or expired code.' }).isVisible()).toBe(true);
  expect(page.url()).toContain('/login');
});
