import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { sixDigitCode, useBrowser, waitForEmail } from '../helpers/browser';

const browser = useBrowser();
const PASSWORD = 'lantern orchard quietly';

/** Checks every checkbox task and answers every written task of the module page. */
async function completeTasks(page: Page) {
  for (const checkbox of await page.getByRole('checkbox').all()) {
    if (!(await checkbox.isChecked())) {
      // A controlled input: it shows the saved state once the save starts, so click and wait.
      await checkbox.click();
      await expect.poll(() => checkbox.isChecked()).toBe(true);
    }
  }
  for (const answer of await page.locator('textarea').all()) {
    // one item per line: enough for any list task's minimum (a list under it is saved, not done)
    await answer.fill(Array.from({ length: 15 }, (_, i) => `Achievement ${i + 1}: with numbers and the role it points to.`).join('\n'));
    const task = answer.locator('xpath=ancestor::*[.//button[normalize-space()="Save"]][1]');
    await task.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => task.getByText('Saved').isVisible()).toBe(true);
  }
}

it('registers, verifies, signs in with a code, enrolls, completes a module and changes reminders', async () => {
  const page = await browser.newPage({ width: 414, height: 896 }); // a phone
  const email = `ada-${randomUUID().slice(0, 8)}@example.com`;

  // Register (three steps)
  let since = Date.now();
  await page.goto('/register');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  const verification = await waitForEmail(email, since, /Verify your email/);
  await page.getByLabel('Verification code').fill(sixDigitCode(verification.text)); // the sixth digit submits
  await page
    .getByRole('link', { name: 'Go to login' })
    .or(page.getByRole('button', { name: 'Go to login' }))
    .click();

  // Sign in: password, then the emailed code
  await page.waitForURL('**/login');
  // the address changes first; the previous page stays until the login chunk has loaded
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  since = Date.now();
  await page.getByRole('button', { name: 'Log in' }).click();
  const loginCode = await waitForEmail(email, since, /Your login code/);
  await page.getByLabel('2FA code').fill(sixDigitCode(loginCode.text)); // the sixth digit submits

  // Not enrolled yet: /enroll, then the dashboard after the delay
  await page.waitForURL('**/enroll');
  await expect.poll(() => page.getByRole('heading', { name: 'Preparing your journey' }).isVisible()).toBe(true);
  await expect.poll(() => page.getByText('Welcome to the 4-Week Career Program!').isVisible()).toBe(true);
  await page.waitForURL('**/dashboard', { timeout: 10_000 });
  await expect.poll(() => page.getByText('Welcome, Ada!').isVisible()).toBe(true);
  await expect.poll(() => page.getByText('0.0% complete', { exact: true }).isVisible()).toBe(true);
  const nextUpBefore = (await page.getByText(/Week 1 • Next up: /).textContent())!.trim();
  // On a phone the header's links and the signed-in line sit behind the Menu button.
  await page.getByRole('button', { name: 'Menu' }).click();
  expect(await page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Menu' }).click();

  // Open the next module and complete its tasks
  await page.getByRole('link', { name: /Resume your next module/ }).click();
  await page.waitForURL('**/modules/**');
  await page.getByText('Your tasks').waitFor();
  await completeTasks(page);
  await expect.poll(() => page.getByRole('link', { name: 'Continue to next module' }).isVisible()).toBe(true);

  // The dashboard's progress and next module changed
  await page.goto('/dashboard');
  await expect.poll(() => page.getByText(/Next up: /).textContent()).not.toBe(nextUpBefore);
  expect(await page.getByText('0.0% complete', { exact: true }).count()).toBe(0);
  expect(await page.getByText(/^\d+\.\d% complete$/).textContent()).toMatch(/^(?!0\.0%)/);

  // Reminders: weekly, kept after a reload
  await page.goto('/settings');
  await page.getByLabel(/Weekly/).click(); // controlled: applied as the save starts
  await expect.poll(() => page.getByText('Preferences updated.').isVisible()).toBe(true);
  await page.reload();
  await expect.poll(() => page.getByLabel(/Weekly/).isChecked()).toBe(true);
  expect(await page.getByLabel(/Daily/).isChecked()).toBe(false);
});

it('sends a signed-out visitor from a learner page to /login', async () => {
  const page = await browser.newPage();
  await page.goto('/dashboard');
  // The sign-in leads back to the page asked for (docs/product.md#10-journeys).
  await page.waitForURL(/\/login\?next=%2Fdashboard$/);
  // the address changes before the lazily loaded page has rendered: wait for the form itself
  await page.getByRole('button', { name: 'Log in' }).waitFor({ state: 'visible' });
});
