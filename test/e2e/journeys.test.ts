import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { AdminSummary } from '../../shared/admin-types';
import type { JsonBody } from '../helpers/api';
import { seriousA11yViolations, signedInCookies, sixDigitCode, useBrowser, waitForEmail } from '../helpers/browser';
import { readPdf } from '../helpers/pdf-text';

/** The journeys of docs/product.md#10-journeys: no dead ends, honest messages. */
const browser = useBrowser();
const PASSWORD = 'copper meadow violin';

async function call<T = JsonBody>(path: string, body?: unknown, cookie?: string) {
  const response = await fetch(`${inject('appUrl')}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => ({}))) as T,
    cookie: response.headers.getSetCookie()[0]?.split(';')[0],
  };
}

/** Every code email to `address` with a subject, oldest first (the store keeps sending order). */
async function codesTo(address: string, subject: RegExp): Promise<string[]> {
  const store = (await (await fetch(`${inject('sesUrl')}/store`)).json()) as {
    emails: Array<{ subject: string; destination: { to: string[] }; body: { text?: string } }>;
  };
  return store.emails
    .filter((e) => e.destination.to.some((to) => to.toLowerCase() === address.toLowerCase()) && subject.test(e.subject))
    .map((e) => sixDigitCode(e.body.text ?? ''));
}

async function verifiedLearner(name: string, lastName = 'Okafor') {
  const email = `${name.toLowerCase().replace(/[^a-z]/g, '')}-${randomUUID().slice(0, 8)}@example.com`;
  const since = Date.now();
  expect(
    (await call('/api/auth/register', { first_name: name, last_name: lastName, email, password: PASSWORD, passwordConfirm: PASSWORD }))
      .status,
  ).toBe(201);
  const code = sixDigitCode((await waitForEmail(email, since, /Verify your email/)).text);
  expect((await call('/api/auth/verify-email', { email, code })).status).toBe(200);
  return email;
}

async function passwordStep(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function adminCookie() {
  const email = inject('adminEmail');
  const since = Date.now();
  const login = await call('/api/auth/login', { email, password: inject('adminPassword') });
  const code = sixDigitCode((await waitForEmail(email, since, /Your login code/)).text);
  const verified = await call('/api/auth/verify-2fa', { email, code, challenge_id: login.body.challenge_id }, login.cookie);
  expect(verified.status).toBe(200);
  return verified.cookie;
}

describe('1. an unverified account is never a dead end', () => {
  it('keeps the verify step across a reload, then the login answer leads to code entry', async () => {
    const page = await browser.newPage();
    const email = `maya-${randomUUID().slice(0, 8)}@example.com`;
    const since = Date.now();
    await page.goto('/register');
    await page.getByLabel('First name').fill('Maya');
    await page.getByLabel('Last name').fill('Okafor');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL('**/register?step=verify');
    // A code was just sent: the resend button counts down.
    await expect.poll(() => page.getByRole('button', { name: /Send a new code \(\d+ s\)/ }).isDisabled()).toBe(true);

    await page.reload();
    await expect.poll(() => page.getByText(`Enter the 6-digit code we sent to ${email}.`, { exact: false }).isVisible()).toBe(true);
    const code = sixDigitCode((await waitForEmail(email, since, /Verify your email/)).text);

    // Leave without verifying; signing in leads to code entry, not to a dead end.
    await passwordStep(page, email);
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'Please verify your email before logging in.' }).isVisible())
      .toBe(true);
    expect(await page.getByRole('button', { name: /Send a new code/ }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Wrong email? Start over' }).isVisible()).toBe(true);
    await page.getByLabel('Verification code').fill(code); // the sixth digit submits
    await expect.poll(() => page.getByText('Your email is verified. You can now log in.').isVisible()).toBe(true);

    // The password is still there: one click signs in.
    const loginSince = Date.now();
    await page.getByRole('button', { name: 'Log in' }).click();
    const loginCode = sixDigitCode((await waitForEmail(email, loginSince, /Your login code/)).text);
    await page.getByLabel('2FA code').fill(loginCode);
    await page.waitForURL('**/enroll');
  });

  it('answers the public resend call the same for any address', async () => {
    const unknown = await call('/api/auth/resend-verification', { email: `nobody-${randomUUID().slice(0, 8)}@example.com` });
    const known = await call('/api/auth/resend-verification', { email: await verifiedLearner('Known') });
    expect(unknown.status).toBe(202);
    expect(known).toEqual({ ...unknown, cookie: undefined });
  });
});

describe('2. the sign-in code step has ways out', () => {
  it('counts attempts, counts down to a fresh code, tells a replaced code apart, keeps a code typed with a space and signs in at the sixth digit', async () => {
    const email = await verifiedLearner('Tomas');
    const page = await browser.newPage();
    // the page's clock is the test's: the resend countdown is moved on, not waited for
    await page.clock.install();
    const since = Date.now();
    await passwordStep(page, email);
    const first = sixDigitCode((await waitForEmail(email, since, /Your login code/)).text);
    await expect.poll(() => page.getByText(`Sent to ${email}`).isVisible()).toBe(true);

    const wrong = first === '000000' ? '111111' : '000000';
    await page.getByLabel('2FA code').fill(wrong);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Incorrect or expired code. 4 attempts left.');
    // Focus went to the message, not to the page body.
    expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('Incorrect or expired code.');

    // a code was just sent: the button counts down the one-a-minute limit, as at registration
    expect(await page.getByRole('button', { name: /^Send a new code \(\d+ s\)$/ }).isDisabled()).toBe(true);
    await page.clock.fastForward(60_000);
    await page.getByRole('button', { name: 'Send a new code' }).click();
    await expect.poll(() => page.getByText(`We sent a new code to ${email}.`).isVisible()).toBe(true);
    await expect.poll(async () => (await codesTo(email, /Your login code/)).length).toBe(2);
    const fresh = (await codesTo(email, /Your login code/))[1];

    // the first email's code, typed after the new one came, is named for what it is
    if (first !== fresh) {
      await page.getByLabel('2FA code').fill(first);
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('That code was replaced by a newer one. Enter the code from the latest email. 4 attempts left.');
      await page.getByLabel('2FA code').fill('');
    }

    // The old code died with its challenge; the new one, typed with a space, signs in.
    const code = page.getByLabel('2FA code');
    await code.click();
    await code.pressSequentially(`${fresh.slice(0, 3)} ${fresh.slice(3)}`);
    await page.waitForURL('**/enroll');
  });

  it('says a spent code no longer works', async () => {
    const email = await verifiedLearner('Ines');
    const page = await browser.newPage();
    const since = Date.now();
    await passwordStep(page, email);
    const first = sixDigitCode((await waitForEmail(email, since, /Your login code/)).text);
    const wrong = first === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('2FA code').fill('');
      await page.getByLabel('2FA code').fill(wrong);
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toMatch(i < 4 ? new RegExp(`${4 - i} attempts? left`) : /no longer works/);
    }
    expect(await page.getByRole('alert').textContent()).toBe('This code no longer works — send a new one.');
    expect(await page.getByRole('button', { name: 'Verify and log in' }).isDisabled()).toBe(true);
  });
});

describe('5. deleting my account is not a dead end', () => {
  it('warns in the dialog, deletes, and a sign-in within the retention period restores the account with the emailed code', async () => {
    const email = await verifiedLearner('Lukas');
    const page = await browser.newPage();
    let since = Date.now();
    await passwordStep(page, email);
    await page.getByLabel('2FA code').fill(sixDigitCode((await waitForEmail(email, since, /Your login code/)).text));
    await page.waitForURL('**/enroll');
    await page.getByText('Continue to dashboard').waitFor();

    await page.goto('/settings');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect.poll(() => dialog.textContent()).toMatch(/certificate, it stops verifying/);
    expect(await dialog.getByRole('button', { name: 'Download my data first' }).isVisible()).toBe(true);
    expect(await seriousA11yViolations(page), 'delete dialog').toEqual([]);
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL('**/account-deleted?erase_on=*');

    // The right password leads to the restore screen, not "Invalid email or password".
    await passwordStep(page, email);
    await page.getByRole('heading', { name: 'Your account was deleted' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await seriousA11yViolations(page), 'restore screen').toEqual([]);
    since = Date.now();
    await page.getByRole('button', { name: 'Restore my account' }).click();
    await page
      .getByLabel('Restore code', { exact: true })
      .fill(sixDigitCode((await waitForEmail(email, since, /restore your account/)).text));
    // Enrolled before the deletion: the restored learner lands on the dashboard.
    await page.waitForURL('**/dashboard');
    expect((await page.request.get('/api/auth/me')).status()).toBe(200);
  });
});

describe('3. weak passwords get the true reason', () => {
  it('names a common password as common, with a live hint while typing', async () => {
    const page = await browser.newPage();
    await page.goto('/register');
    await page.getByLabel('First name').fill('Lea');
    await page.getByLabel('Last name').fill('Okafor');
    await page.getByLabel('Email').fill(`lea-${randomUUID().slice(0, 8)}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill('password1');
    await expect.poll(() => page.getByText(/Password strength: Very weak\. This password is too common/).isVisible()).toBe(true);
    await page.getByLabel('Confirm password').fill('password1');
    await page.getByRole('button', { name: 'Register' }).click();
    const message = 'This password is too common. Choose one that is harder to guess.';
    await expect.poll(() => page.getByRole('alert').filter({ hasText: message }).first().isVisible()).toBe(true);
    expect(await page.getByText('Password must be at least 8 characters.').count()).toBe(0);
    // The banner goes as soon as the password changes.
    await page.getByLabel('Password', { exact: true }).fill('copper meadow violin harbour');
    await expect.poll(() => page.locator('.alert').filter({ hasText: message }).count()).toBe(0);
    await expect.poll(() => page.getByText(/Password strength: Strong/).isVisible()).toBe(true);
  });
});

describe('4. an administrator is never enrolled by opening a page', () => {
  it("offers a preview from the header's Dashboard, and the preview leaves the learner metrics alone", async () => {
    const cookie = await adminCookie();
    const before = (await call<AdminSummary>('/api/admin/summary', undefined, cookie)).body;
    const page = await browser.newPage();
    // The API sign-in above sent a code in the same second: take the newest email by order.
    const sent = (await codesTo(inject('adminEmail'), /Your login code/)).length;
    await passwordStep(page, inject('adminEmail'), inject('adminPassword'));
    await expect.poll(async () => (await codesTo(inject('adminEmail'), /Your login code/)).length).toBe(sent + 1);
    await page.getByLabel('2FA code').fill((await codesTo(inject('adminEmail'), /Your login code/))[sent]);
    await page.waitForURL('**/admin/dashboard');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Preview the program as a learner' }).isVisible()).toBe(true);
    expect(page.url()).toContain('/enroll');
    const opened = (await call<AdminSummary>('/api/admin/summary', undefined, cookie)).body;
    expect(opened.cards.total_enrollments).toBe(before.cards.total_enrollments);

    await page.getByRole('button', { name: 'Preview the program as a learner' }).click();
    await page.waitForURL('**/dashboard', { timeout: 10_000 });
    const after = (await call<AdminSummary>('/api/admin/summary', undefined, cookie)).body;
    expect(after.cards.total_enrollments).toBe(before.cards.total_enrollments);
    expect(after.cards.avg_completion).toBe(before.cards.avg_completion);
  });
});

describe('12. a session that ends says so', () => {
  async function signInThroughPage(page: Page, email: string) {
    const since = Date.now();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByLabel('2FA code').fill(sixDigitCode((await waitForEmail(email, since, /Your login code/)).text));
  }

  it('lands on /login with the message and returns to the page after signing in again', async () => {
    const email = await verifiedLearner('Sami');
    const page = await browser.newPage();
    await passwordStep(page, email);
    await page.getByLabel('2FA code').fill(sixDigitCode((await waitForEmail(email, Date.now() - 5000, /Your login code/)).text));
    await page.waitForURL('**/enroll');
    await page.waitForURL('**/dashboard', { timeout: 10_000 });
    await page.getByRole('link', { name: /Resume your next module/ }).click();
    await page.waitForURL('**/modules/**');
    const modulePath = new URL(page.url()).pathname;
    // The page has loaded (nothing of it is still asking the server) before the session ends.
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).waitFor();

    // The session ends elsewhere (signed out from another place with the same session).
    const cookie = (await page.context().cookies()).find((c) => c.name.endsWith('session'))!;
    expect((await call('/api/auth/logout', {}, `${cookie.name}=${cookie.value}`)).status).toBeLessThan(300);

    // The next time the page asks (here: the learner comes back and reloads), it hears why.
    await page.reload();
    await page.waitForURL('**/login?**');
    const address = new URL(page.url());
    expect(address.searchParams.get('reason')).toBe('session_ended');
    expect(address.searchParams.get('next')).toBe(modulePath);
    await expect.poll(() => page.getByText('Your session has ended. Sign in again.').isVisible()).toBe(true);
    expect(await page.getByText(`Signed in as ${email}`).count()).toBe(0);

    await signInThroughPage(page, email);
    await page.waitForURL(`**${modulePath}`);
  });

  it('keeps a draft that met an ended session, and one sign-in returns to the module with it', async () => {
    const email = await verifiedLearner('Lena');
    const page = await browser.newPage();
    await passwordStep(page, email);
    await page.getByLabel('2FA code').fill(sixDigitCode((await waitForEmail(email, Date.now() - 5000, /Your login code/)).text));
    await page.waitForURL('**/dashboard', { timeout: 15_000 });
    await page.getByRole('link', { name: /Resume your next module/ }).click();
    await page.waitForURL('**/modules/**');
    const modulePath = new URL(page.url()).pathname;
    const answer = page.locator('textarea').first();
    await answer.waitFor();
    const endSession = async () => {
      const cookie = (await page.context().cookies()).find((c) => c.name.endsWith('session'))!;
      expect((await call('/api/auth/logout', {}, `${cookie.name}=${cookie.value}`)).status).toBeLessThan(300);
    };

    await endSession();
    const draft = 'My strengths: listening, planning, and finishing what I start.';
    await answer.fill(draft);
    await page.getByRole('button', { name: 'Save' }).first().click();
    await page.waitForURL('**/login?**');
    expect(new URL(page.url()).searchParams.get('next')).toBe(modulePath);

    // One sign-in: the module opens (no second trip to /login) with the text back in its field.
    await signInThroughPage(page, email);
    await page.waitForURL(`**${modulePath}`);
    await expect.poll(() => page.locator('textarea').first().inputValue()).toBe(draft);
    await page.getByText('Your unsaved answer was kept in this browser.').waitFor();
    expect(new URL(page.url()).pathname).toBe(modulePath);
    await page.getByRole('button', { name: 'Save' }).first().click();
    await page.getByText('Saved', { exact: true }).first().waitFor();
    await page.reload();
    await expect.poll(() => page.locator('textarea').first().inputValue()).toBe(draft);
    expect(await page.getByText('Your unsaved answer was kept in this browser.').count()).toBe(0);

    // Settings, opened after the session ended elsewhere, sends to /login once instead of
    // reporting each of its sections' failures.
    await endSession();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/login?**');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/settings');
    await expect.poll(() => page.getByText('Your session has ended. Sign in again.').isVisible()).toBe(true);
    expect(await page.getByText(/^Unable to/).count()).toBe(0);
  });

  it('sends an administrator whose session ended from an admin page to /login', async () => {
    const cookie = await adminCookie();
    const page = await browser.newPage();
    const [name, ...value] = cookie.split('=');
    await page.context().addCookies(signedInCookies(name, value.join('=')));
    await page.goto('/admin/users');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.locator('table').first().waitFor();
    expect((await call('/api/auth/logout', {}, cookie)).status).toBeLessThan(300);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
    await page.waitForURL('**/login?**');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/admin/audit');
    expect(await page.getByText('unauthorized', { exact: true }).count()).toBe(0);
  });

  it('never follows a return path off the site', async () => {
    const email = await verifiedLearner('Noor');
    const page = await browser.newPage();
    await page.goto('/login?reason=session_ended&next=%2F%2Fevil.example%2Fsteal');
    await signInThroughPage(page, email);
    await page.waitForURL('**/enroll');
    expect(new URL(page.url()).origin).toBe(new URL(inject('appUrl')).origin);
  });
});

/** A learner who finished the program (an administrator completed each module) and whose certificate is issued. */
async function certifiedLearner(name: string, lastName?: string) {
  const email = await verifiedLearner(name, lastName);
  const since = Date.now();
  const login = await call('/api/auth/login', { email, password: PASSWORD });
  const code = sixDigitCode((await waitForEmail(email, since, /Your login code/)).text);
  const learner = (await call('/api/auth/verify-2fa', { email, code, challenge_id: login.body.challenge_id }, login.cookie)).cookie;
  expect((await call('/api/enroll', {}, learner)).status).toBe(200);
  const admin = await adminCookie();
  const userId = (await call<{ id: string }>('/api/auth/me', undefined, learner)).body.id;
  for (const module of (await call<AdminSummary>('/api/admin/summary', undefined, admin)).body.funnel)
    expect((await call('/api/admin/modules/force-complete', { user_id: userId, module_id: module.module_id }, admin)).status).toBe(200);
  const certificate = await call<{ verification_code: string }>('/api/certificate', undefined, learner);
  expect(certificate.status).toBe(200);
  return { email, cookie: learner, code: certificate.body.verification_code };
}

// One certified learner for the certificate tests (finishing the program takes a dozen API calls).
let certified: ReturnType<typeof certifiedLearner> | undefined;
const certifiedLukasz = () => (certified ??= certifiedLearner('Łukasz', 'Nguyễn'));

describe('the public certificate check', () => {
  it('reads a code typed any way, offers a field for another, names the issuer and previews as a certificate card', async () => {
    const { code } = await certifiedLukasz();
    const page = await browser.newPage();
    // lower case without dashes: the page moves to the canonical address and says valid
    await page.goto(`/certificates/${code.replace(/-/g, '').toLowerCase()}`);
    await page.waitForURL(`**/certificates/${code}`);
    await page.getByText('This certificate is valid.').waitFor();
    expect(await page.locator('.cert-check__facts').innerText()).toContain('Issued by\nCareer Program');
    // typed with spaces and look-alikes (O for 0, I for 1)
    await page.goto('/certificates');
    const typed = code.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'i');
    await page.getByLabel('Verification code').fill(` ${typed} `);
    await page.getByRole('button', { name: 'Check' }).click();
    await page.waitForURL(`**/certificates/${code}`);
    await page.getByText('This certificate is valid.').waitFor();
    await page.getByLabel('Check another code').fill('nope');
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText('No certificate has the code nope. Check the code and try again.').waitFor();
    // a link-preview crawler reads the HTML as served, without running the app
    const ogTitle = async (path: string) =>
      /<meta property="og:title" content="([^"]+)"/.exec(await (await fetch(`${inject('appUrl')}${path}`)).text())?.[1];
    // the check's own card (the same for every code: no learner's name in previews), the site's elsewhere
    expect(await ogTitle(`/certificates/${code}`)).toBe('Certificate check · Career Program');
    expect(await ogTitle('/certificates')).toBe('Certificate check · Career Program');
    expect(await ogTitle('/')).toBe('Career Program: verified certificates of the 4-Week Career Program');
    const html = await (await fetch(`${inject('appUrl')}/certificates/${code}`)).text();
    expect(html).toMatch(
      /<meta property="og:description" content="A certificate of completion of the 4-Week Career Program, issued by Career Program\./,
    );
    expect(html).toContain('<meta name="twitter:card" content="summary" />');
  });
});

describe("the learner's certificate", () => {
  it('is the main action once done; its PDF writes the name as typed with a link, it prints on one landscape page and shares', async () => {
    const { email, code } = await certifiedLukasz();
    const page = await browser.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    // a phone's share sheet, recorded instead of opened
    await page.addInitScript(() => {
      Object.assign(navigator, {
        share: (data: ShareData) => Promise.resolve(void ((window as unknown as { shared: ShareData }).shared = data)),
      });
    });
    const since = Date.now();
    await passwordStep(page, email);
    await page.getByLabel('2FA code').fill(sixDigitCode((await waitForEmail(email, since, /Your login code/)).text));
    await page.waitForURL('**/dashboard', { timeout: 15_000 });
    const main = page.locator('.pg-resume__actions > :first-child');
    expect(await main.textContent()).toBe('View your certificate');
    expect(await seriousA11yViolations(page), '/dashboard, completed').toEqual([]);
    await main.click();
    await page.waitForURL('**/certificate');
    const verifyUrl = `${inject('appUrl')}/certificates/${code}`;
    const card = page.locator('.cert');
    expect(await card.innerText()).toContain('Issued by Career Program');
    await card.getByRole('img', { name: 'QR code of the check address' }).waitFor();
    expect(await seriousA11yViolations(page), '/certificate').toEqual([]);

    const linkedIn = new URL((await page.getByRole('link', { name: 'Add to LinkedIn profile' }).getAttribute('href'))!);
    expect(linkedIn.origin + linkedIn.pathname).toBe('https://www.linkedin.com/profile/add');
    expect(Object.fromEntries(linkedIn.searchParams)).toMatchObject({
      startTask: 'CERTIFICATION_NAME',
      organizationName: 'Career Program',
      certUrl: verifyUrl,
      certId: code,
    });
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('Link copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(verifyUrl);
    await page.getByRole('button', { name: 'Share' }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { shared?: ShareData }).shared?.url)).toBe(verifyUrl);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    const file = await readFile(await (await download).path());
    const pdf = await readPdf(new Uint8Array(file));
    expect(pdf.lines).toContain('Łukasz Nguyễn');
    expect(pdf.links).toEqual([verifyUrl]);

    // printing: the browser's own PDF of the page, as a printer gets it
    const printed = await readPdf(new Uint8Array(await page.pdf({ preferCSSPageSize: true, printBackground: true })));
    expect(printed.pages).toHaveLength(1);
    expect(printed.pages[0].width).toBeGreaterThan(printed.pages[0].height);
    expect(printed.lines.join(' ')).toContain('Łukasz Nguyễn');
  });
});

describe('11. phone', () => {
  it('keeps the header to one line of at most 64 px at 390 px, with nothing scrolling sideways', async () => {
    const email = await verifiedLearner('Ravi');
    const page = await browser.newPage({ width: 390, height: 844 });
    const since = Date.now();
    await passwordStep(page, email);
    await page.getByLabel('2FA code').fill(sixDigitCode((await waitForEmail(email, since, /Your login code/)).text));
    await page.waitForURL('**/dashboard', { timeout: 15_000 });
    for (const path of ['/dashboard', '/settings', '/']) {
      await page.goto(path);
      await page.getByRole('button', { name: 'Menu' }).waitFor();
      const header = await page.locator('.site-header').boundingBox();
      expect(header!.height, path).toBeLessThanOrEqual(64);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        path,
      ).toBeLessThanOrEqual(0);
    }
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings');
    await expect.poll(() => page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');
  });

  it("gives an administrator on a phone's admin page the admin links once: in the sidebar, not again in the menu", async () => {
    const cookie = await adminCookie();
    const page = await browser.newPage({ width: 390, height: 844 });
    const [name, ...value] = cookie.split('=');
    await page.context().addCookies(signedInCookies(name, value.join('=')));
    await page.goto('/admin/users');
    await page.getByRole('navigation', { name: 'Admin' }).waitFor();
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => menu.getByRole('link', { name: 'Settings' }).isVisible()).toBe(true);
    expect(await menu.getByRole('link', { name: 'Users' }).isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Users' }).isVisible()).toBe(true);
    // Outside the admin pages the menu still leads there.
    await menu.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings');
    await expect.poll(() => page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect.poll(() => menu.getByRole('link', { name: 'Users' }).isVisible()).toBe(true);
  });
});
