import { expect, inject, it } from 'vitest';
import type { JsonBody } from '../helpers/api';
import { enrolledLearnerCookie, seriousA11yViolations, signedInCookies, sixDigitCode, useBrowser, waitForEmail } from '../helpers/browser';

/** axe-core's WCAG 2 A/AA rules on the main screens: no serious or critical violation. */
const browser = useBrowser();

it('has no serious accessibility violations on the public screens', async () => {
  const page = await browser.newPage();
  // the unsubscribe page reads the address and frequency by the link's token (signed by the
  // reminder worker): answered here, so the page renders as a valid link shows it
  await page.route('**/api/notifications/subscription?*', (route) =>
    route.fulfill({ json: { email: 'una@example.com', reminder_frequency: 'daily' } }),
  );
  for (const [path, ready] of [
    ['/', 'Secure career insights'],
    ['/login', 'Forgot password?'],
    ['/register', 'Confirm password'],
    ['/forgot-password', 'Send reset link'],
    // a reminder's "Stop these reminders" link lands here (nothing is sent before the button)
    ['/unsubscribe?token=answered-by-the-route-above', 'Stop these reminders'],
    // a passkey_added notice's "this wasn't me" link lands here (nothing is sent before the button)
    ['/passkey-removal?token=not-checked-until-the-button', 'Remove the passkey and sign out everywhere'],
  ]) {
    await page.goto(path);
    await page.getByText(ready).first().waitFor();
    expect(await seriousA11yViolations(page), path).toEqual([]);
  }
  // on a phone the unsubscribe page's choices are the app's standard buttons (a 44 px target)
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/unsubscribe?token=answered-by-the-route-above');
  const choices = page.locator('.np-actions button');
  await choices.first().waitFor();
  const heights = await choices.evaluateAll((buttons) => buttons.map((button) => button.getBoundingClientRect().height));
  expect(heights).toHaveLength(2);
  for (const height of heights) expect(height).toBeGreaterThanOrEqual(44);
});

it('has no serious accessibility violations on the learner screens', async () => {
  const cookie = await enrolledLearnerCookie('a11y', { first: 'Alan', last: 'Turing' }, 'granite meadow whistle');
  const page = await browser.newPage();
  const [name, ...value] = cookie.split('=');
  await page.context().addCookies(signedInCookies(name, value.join('=')));
  for (const [path, ready] of [
    ['/dashboard', 'Resume your next module'],
    ['/modules/know-your-strengths', 'Your tasks'],
    ['/settings', 'Notification preferences'],
  ]) {
    await page.goto(path);
    await page.getByText(ready).first().waitFor();
    expect(await seriousA11yViolations(page), path).toEqual([]);
  }
});

it('has no serious accessibility violations on the admin screens', async () => {
  const email = inject('adminEmail');
  const since = Date.now();
  const loginResponse = await fetch(`${inject('appUrl')}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: inject('adminPassword') }),
  });
  const login = (await loginResponse.json()) as JsonBody;
  const code = sixDigitCode((await waitForEmail(email, since, /Your login code/)).text);
  const verified = await fetch(`${inject('appUrl')}/api/auth/verify-2fa`, {
    method: 'POST',
    // The sign-in challenge is bound to the browser that passed the password step.
    headers: { 'content-type': 'application/json', cookie: loginResponse.headers.getSetCookie()[0].split(';')[0] },
    body: JSON.stringify({ email, code, challenge_id: login.challenge_id }),
  });
  const [name, ...value] = verified.headers.getSetCookie()[0].split(';')[0].split('=');
  const page = await browser.newPage();
  await page.context().addCookies(signedInCookies(name, value.join('=')));
  for (const [path, ready] of [
    ['/admin/dashboard', '30-Day Actives'],
    ['/admin/users', 'Rows per page'],
    ['/admin/audit', 'Entity type'],
  ]) {
    await page.goto(path);
    await page.getByText(ready).first().waitFor();
    await page.waitForTimeout(300); // let the data render
    expect(await seriousA11yViolations(page), path).toEqual([]);
  }
  // the user drawer, open on the first row
  await page.goto(`/admin/users?q=${encodeURIComponent(email)}`);
  await page.getByRole('cell', { name: email }).click();
  await page.getByRole('dialog').getByText('Account facts').waitFor();
  expect(await seriousA11yViolations(page), 'user drawer').toEqual([]);
});
