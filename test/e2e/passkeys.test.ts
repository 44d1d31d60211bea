import { randomUUID } from 'node:crypto';
import { expect, inject, it } from 'vitest';
import { seriousA11yViolations, sixDigitCode, useBrowser, waitForEmail } from '../helpers/browser';

/**
 * Passkeys end to end (docs/security.md#account-security-center): Chromium with a virtual platform authenticator
 * (DevTools protocol WebAuthn domain) adds a passkey in Settings → Security (after "Confirm it's
 * you" with the password), signs out, signs in
 * with it from the login page, then removes it ("Confirm it's you" answered by that passkey) —
 * after which it no longer signs in.
 */
const browser = useBrowser();
const PASSWORD = 'harbor quartz meadow';

async function verifiedAccount() {
  const email = `passkey-${randomUUID().slice(0, 8)}@example.com`;
  const post = (path: string, body: unknown) =>
    fetch(`${inject('appUrl')}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const since = Date.now();
  expect(
    (await post('/api/auth/register', { first_name: 'Ada', last_name: 'Lovelace', email, password: PASSWORD, passwordConfirm: PASSWORD }))
      .status,
  ).toBe(201);
  const code = sixDigitCode((await waitForEmail(email, since, /Verify your email/)).text);
  expect((await post('/api/auth/verify-email', { email, code })).status).toBe(200);
  return email;
}

it('adds a passkey, signs out, signs in with it, and removes it', async () => {
  const email = await verifiedAccount();
  const page = await browser.newPage();

  // A platform authenticator that holds discoverable credentials and verifies the user.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  // Sign in with password + emailed code
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  const since = Date.now();
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByLabel('2FA code').fill(sixDigitCode((await waitForEmail(email, since, /Your login code/)).text));
  // the sixth digit submits the code step (docs/product.md#10-journeys)
  await page.waitForURL(/\/(enroll|dashboard)$/);

  // Settings → Security: this device is listed; add a passkey
  await page.goto('/settings');
  await page.getByRole('heading', { name: 'Security' }).waitFor();
  await expect.poll(() => page.getByText('This device', { exact: true }).isVisible()).toBe(true);
  // Add a passkey, name left empty: "Confirm it's you" with the password even right after signing
  // in; the passkey is named after this browser.
  const addedSince = Date.now();
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByRole('form', { name: "Confirm it's you" }).getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  const added = page.getByText(/^Passkey ".+ on Linux" added\.$/);
  await added.waitFor();
  const name = /"(.+)"/.exec((await added.textContent()) ?? '')![1];
  await expect.poll(() => page.getByRole('list', { name: 'Your passkeys' }).getByText(name).isVisible()).toBe(true);
  expect(await page.getByRole('list', { name: 'Your passkeys' }).textContent()).toContain('Last used never');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0].isResidentCredential).toBe(true);
  expect((await waitForEmail(email, addedSince, /A passkey was added/)).text).toContain(`named "${name}"`);
  expect(await seriousA11yViolations(page), '/settings with the Security section').toEqual([]);

  // Sign out, then sign in with the passkey alone (no email, no password, no code)
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/settings'));
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.waitForURL(/\/(enroll|dashboard)$/);

  await page.goto('/settings');
  await expect
    .poll(() =>
      page
        .getByRole('list', { name: 'Your passkeys' })
        .getByText(/Last used (?!never)/)
        .isVisible(),
    )
    .toBe(true);

  // Remove it after "Confirm it's you", answered by the passkey itself: it no longer signs in
  await page.getByRole('button', { name: `Remove ${name}` }).click();
  await page
    .getByRole('group', { name: `Remove passkey ${name}?` })
    .getByRole('button', { name: 'Use a passkey instead' })
    .click();
  await expect.poll(() => page.getByText('You have no passkeys yet.').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/settings'));
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect
    .poll(() =>
      page.getByRole('alert').filter({ hasText: 'This passkey is not recognized. Sign in with your email and password.' }).isVisible(),
    )
    .toBe(true);
  expect(page.url()).toContain('/login');
  expect(await seriousA11yViolations(page), '/login with the passkey button').toEqual([]);
});
