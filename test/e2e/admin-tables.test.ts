import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUserListItem, ListPage } from '../../shared/admin-types';
import type { JsonBody } from '../helpers/api';
import { launchBrowser, seriousA11yViolations, signedInCookies, sixDigitCode } from '../helpers/browser';
import { startRuntimeProcess, type RuntimeProcess } from '../helpers/runtime-process';

/**
 * The admin tables on a 1280 px screen (docs/product.md#1013-admin-tables-fit) and the users
 * page kept in the address (docs/product.md#109-users-table). Its own runtime with a fresh table:
 * exactly 30 learners + the admin, so the footer reads "1–25 of 31" and page 2 exists, and 30
 * registrations do not spend the shared runtime's per-IP registration budget.
 */
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'e2e-Admin-Password-2026';
const PASSWORD = 'copper meadow lantern';
// a real browser's agent: the audit table shows its first 64 characters
const AGENT = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let runtime: RuntimeProcess;
let browser: Browser;
let adminCookie: { name: string; value: string };

async function call<T = JsonBody>(method: string, path: string, body?: unknown, cookie?: string) {
  const response = await fetch(`${runtime.appUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'user-agent': AGENT, ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T, cookie: response.headers.getSetCookie()[0]?.split(';')[0] };
}

async function latestCode(address: string, since: number): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const store = (await (await fetch(`${runtime.sesUrl}/store`)).json()) as {
      emails: Array<{ destination: { to: string[] }; body: { text?: string }; at: number }>;
    };
    const match = store.emails.filter((e) => e.destination.to.includes(address) && e.at * (e.at < 1e12 ? 1000 : 1) >= since - 1000).at(-1);
    if (match) return sixDigitCode(match.body.text ?? '');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no email to ${address}`);
}

async function adminPage(): Promise<Page> {
  const context = await browser.newContext({ baseURL: runtime.appUrl, viewport: { width: 1280, height: 900 } });
  await context.addCookies(signedInCookies(adminCookie.name, adminCookie.value));
  return context.newPage();
}

/** How far the table's scroll container overflows sideways (0 when every column fits). */
const sidewaysOverflow = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => el.scrollWidth - el.clientWidth);

beforeAll(async () => {
  runtime = await startRuntimeProcess({ env: { ADMIN_EMAIL, ADMIN_PASSWORD } });
  browser = await launchBrowser();
  // 30 learners with long, realistic names and addresses (registered, not verified)
  const ids: string[] = [];
  for (let index = 1; index <= 30; index++) {
    const email = `maximiliane.okafor-vandenberg.${String(index).padStart(2, '0')}@northwind-logistics-consulting.example.com`;
    const registered = await call('POST', '/api/auth/register', {
      first_name: 'Maximiliane-Theodora',
      last_name: `Okafor-Vandenberg ${index}`,
      email,
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    expect(registered.status, email).toBe(201);
  }
  const since = Date.now();
  const signInCookie = async (email: string, password: string) => {
    const from = Date.now();
    const login = await call('POST', '/api/auth/login', { email, password });
    const verified = await call(
      'POST',
      '/api/auth/verify-2fa',
      {
        email,
        code: await latestCode(email, from),
        challenge_id: login.body.challenge_id,
      },
      login.cookie,
    );
    expect(verified.status, email).toBe(200);
    return verified.cookie;
  };
  const login = await call('POST', '/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  const verified = await call(
    'POST',
    '/api/auth/verify-2fa',
    {
      email: ADMIN_EMAIL,
      code: await latestCode(ADMIN_EMAIL, since),
      challenge_id: login.body.challenge_id,
    },
    login.cookie,
  );
  expect(verified.status).toBe(200);
  const [name, ...value] = verified.cookie.split('=');
  adminCookie = { name, value: value.join('=') };
  // admin actions: audit entries with user targets (long ids) and Before/After values
  const list = await call<ListPage<AdminUserListItem>>('GET', '/api/admin/users?page_size=25', undefined, verified.cookie);
  ids.push(
    ...list.body.items
      .filter((item: { role: string }) => item.role === 'learner')
      .slice(0, 3)
      .map((item: { id: string }) => item.id),
  );
  for (const id of ids) {
    expect((await call('PATCH', `/api/admin/users/${id}`, { first_name: 'Maximiliane-Theodora-Augusta' }, verified.cookie)).status).toBe(
      200,
    );
    expect((await call('POST', `/api/admin/users/${id}/lock`, {}, verified.cookie)).status).toBe(200);
  }
  // three learners in the program, moved on by module overrides: the funnel reaches 3, 2, 1, 1
  const modules = (await call<{ funnel: Array<{ module_id: string }> }>('GET', '/api/admin/summary', undefined, verified.cookie)).body
    .funnel;
  for (const [index, finished] of [3, 1, 0].entries()) {
    const email = `maximiliane.okafor-vandenberg.${String(index + 10).padStart(2, '0')}@northwind-logistics-consulting.example.com`;
    expect((await call('POST', '/api/auth/verify-email', { email, code: await latestCode(email, 0) })).status).toBe(200);
    const learner = await signInCookie(email, PASSWORD);
    expect((await call('POST', '/api/enroll', {}, learner)).status).toBe(200);
    const userId = (await call<{ id: string }>('GET', '/api/auth/me', undefined, learner)).body.id;
    for (const module of modules.slice(0, finished))
      expect(
        (await call('POST', '/api/admin/modules/force-complete', { user_id: userId, module_id: module.module_id }, verified.cookie)).status,
      ).toBe(200);
  }
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

describe('admin tables at 1280 px', () => {
  it('the users table shows every column without sideways scroll; the footer reads "1–25 of 31"', async () => {
    const page = await adminPage();
    await page.goto('/admin/users');
    await page
      .getByRole('button', { name: /@northwind-logistics-consulting\.example\.com$/ })
      .first()
      .waitFor();
    expect(await page.locator('.admin-table--users thead th').count()).toBe(9);
    expect(await sidewaysOverflow(page, '.table-scroll')).toBeLessThanOrEqual(0);
    await expect.poll(() => page.getByText('1–25 of 31').isVisible()).toBe(true);
    expect(await page.getByText('Total: 31').isVisible()).toBe(true);
    // unverified accounts say so in the table
    expect(await page.locator('.admin-table--users .admin-badge--unverified').count()).toBeGreaterThan(20);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('the audit table shows every column without sideways scroll: ids cut with a copy button, JSON cut', async () => {
    const page = await adminPage();
    await page.goto('/admin/audit');
    await page.locator('.audit-table tbody tr').first().waitFor();
    expect(await page.locator('.audit-table > thead > tr > th').count()).toBe(7);
    // realistic rows are on screen: long user ids (cut, with a copy button) and Before/After values
    await expect.poll(() => page.getByRole('button', { name: /^Copy user id [0-9a-f-]{36}$/ }).count()).toBeGreaterThan(0);
    expect(
      await page
        .locator('td.audit-table__json')
        .filter({ hasText: /first_name/ })
        .count(),
    ).toBeGreaterThan(0);
    expect(await sidewaysOverflow(page, '.table-scroll')).toBeLessThanOrEqual(0);
    // the full values on demand do not widen the table either
    await page.getByText('Full values and diff').first().click();
    expect(await sidewaysOverflow(page, '.table-scroll')).toBeLessThanOrEqual(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('the admin dashboard has no blank scroll area under its footer (the hidden chart tables stay clipped)', async () => {
    const page = await adminPage();
    await page.goto('/admin/dashboard');
    await expect.poll(() => page.locator('div.VictoryContainer').count()).toBe(2);
    const { gap, below } = await page.evaluate(() => {
      const bottom = document.querySelector('.site-footer')!.getBoundingClientRect().bottom + window.scrollY;
      // what reaches below the footer (named in the failure message)
      const below = [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().bottom + window.scrollY > bottom + 1)
        .slice(0, 5)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().bottom + window.scrollY - bottom)}px`,
        );
      return { gap: document.documentElement.scrollHeight - bottom, below };
    });
    expect(gap, below.join('; ')).toBeLessThanOrEqual(1);
  });
});

describe('where learners stall', () => {
  /** Each row's count label, and its bar's drawn width against the track (px). */
  const funnelRows = (page: Page) =>
    page.locator('.funnel__row').evaluateAll((rows) =>
      rows.map((row) => ({
        count: row.querySelector('.funnel__count')!.textContent,
        bar: [...row.querySelectorAll('.funnel__bar')].reduce((sum, bar) => sum + bar.getBoundingClientRect().width, 0),
        track: row.querySelector('.funnel__track')!.getBoundingClientRect().width,
      })),
    );

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ])
    it(`draws every module's bar in proportion to its count and labels it, at ${viewport.width} px`, async () => {
      const page = await adminPage();
      await page.setViewportSize(viewport);
      await page.goto('/admin/dashboard');
      await page.locator('.funnel__row').first().waitFor();
      const rows = await funnelRows(page);
      expect(rows.slice(0, 5).map((row) => row.count)).toEqual([
        '3 of 3, 100 % Largest drop: 1 stop here',
        '2 of 3, 67 %',
        '1 of 3, 33 %',
        '1 of 3, 33 %',
        '0 of 3, 0 %',
      ]);
      const reached = [3, 2, 1, 1];
      for (const [index, row] of rows.entries()) {
        const expected = ((reached[index] ?? 0) / 3) * row.track;
        expect(Math.abs(row.bar - expected), `row ${index + 1}: ${row.bar} px of ${row.track} px`).toBeLessThanOrEqual(1);
        expect(row.track, `row ${index + 1}`).toBeGreaterThan(viewport.width > 600 ? 300 : 150);
      }
      // once the other cards' charts have their data and their measured width
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
        .toBeLessThanOrEqual(0);
      if (viewport.width > 600) expect(await seriousA11yViolations(page)).toEqual([]);
    });
});

describe('the users page in the address', () => {
  it('reload and Back keep page 2', async () => {
    const page = await adminPage();
    await page.goto('/admin/users');
    await expect.poll(() => page.getByText('1–25 of 31').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/[?&]page=2/);
    await expect.poll(() => page.getByText('26–31 of 31').isVisible()).toBe(true);
    expect(await page.getByText('Page 2', { exact: true }).isVisible()).toBe(true);

    await page.reload();
    await expect.poll(() => page.getByText('26–31 of 31').isVisible()).toBe(true);
    expect(await page.getByText('Page 2', { exact: true }).isVisible()).toBe(true);

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL('**/admin/audit');
    await page.goBack();
    await page.waitForURL(/[?&]page=2/);
    await expect.poll(() => page.getByText('26–31 of 31').isVisible()).toBe(true);

    // Previous goes back to page 1 (and Back from there returns to page 2 again)
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => page.getByText('1–25 of 31').isVisible()).toBe(true);
    expect(page.url()).not.toMatch(/[?&]page=/);
  });
});
