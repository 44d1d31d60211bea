import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { SIGNED_IN_HINT_COOKIE } from '../../shared/constants';
import type { JsonBody } from './api';

/** Debian's Chromium, never a downloaded browser (docs/architecture.md#8-tests). Playwright gives each launch a fresh profile. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * One Chromium for every file that runs in this process: launched by the first file that needs
 * it, closed when the last holder lets go. The browser suite (test/browser/suite.test.ts) holds it
 * for its whole run, so its files share one launch; a file run on its own launches and closes it.
 */
let shared: { browser: Promise<Browser>; holders: number } | undefined;

async function acquireBrowser(): Promise<Browser> {
  shared ??= { browser: launchBrowser(), holders: 0 };
  shared.holders += 1;
  return shared.browser;
}

async function releaseBrowser(): Promise<void> {
  if (!shared) return;
  shared.holders -= 1;
  if (shared.holders > 0) return;
  const { browser } = shared;
  shared = undefined;
  await (await browser).close();
}

/** Keeps the shared browser open from this file's start to its end (the browser suite's files). */
export function holdBrowser() {
  beforeAll(async () => {
    await acquireBrowser();
  });
  afterAll(releaseBrowser);
}

/** A browser for the test file; `newPage()` gives a fresh context (its own cookies). */
export function useBrowser() {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await acquireBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await releaseBrowser();
  });
  return {
    appUrl: () => inject('appUrl'),
    async newPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
      const context = await browser!.newContext({ baseURL: inject('appUrl'), viewport });
      contexts.push(context);
      return context.newPage();
    },
  };
}

interface StoreEmail {
  subject: string;
  destination: { to: string[] };
  body: { text?: string; html?: string };
  at: number;
}

/** Waits for the newest email to `address` sent after `since` (ms) and returns its 6-digit code or link. */
export async function waitForEmail(address: string, since: number, subject?: RegExp): Promise<{ subject: string; text: string }> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const store = (await (await fetch(`${inject('sesUrl')}/store`)).json()) as { emails: StoreEmail[] };
    const match = store.emails
      .filter((e) => e.destination.to.some((to) => to.toLowerCase().includes(address.toLowerCase())))
      .filter((e) => e.at * (e.at < 1e12 ? 1000 : 1) >= since - 1000)
      .filter((e) => !subject || subject.test(e.subject))
      .sort((a, b) => b.at - a.at)[0];
    if (match) return { subject: match.subject, text: match.body.text ?? '' };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no email to ${address}`);
}

export const sixDigitCode = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's WCAG 2 A/AA rules on the page: its serious or critical violations, one line each. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // Evaluated by the browser's debugging protocol, not added as a <script>: the page's CSP
  // (script-src 'self', as CloudFront sends it) refuses an inline script, and must keep doing so.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: unknown,
            options: unknown,
          ) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  });
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * A new learner through the API as the SPA would (register, verify, password + emailed code,
 * enroll): returns the session cookie (`name=value`) for a browser context.
 */
export async function enrolledLearnerCookie(emailPrefix: string, name: { first: string; last: string }, password: string): Promise<string> {
  const email = `${emailPrefix}-${randomUUID().slice(0, 8)}@example.com`;
  const post = async (path: string, body: unknown, cookie?: string) => {
    const response = await fetch(`${inject('appUrl')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    return { body: (await response.json()) as JsonBody, cookie: response.headers.getSetCookie()[0]?.split(';')[0] };
  };
  let since = Date.now();
  await post('/api/auth/register', { first_name: name.first, last_name: name.last, email, password, passwordConfirm: password });
  await post('/api/auth/verify-email', { email, code: sixDigitCode((await waitForEmail(email, since, /Verify your email/)).text) });
  since = Date.now();
  const login = await post('/api/auth/login', { email, password });
  const code = sixDigitCode((await waitForEmail(email, since, /Your login code/)).text);
  const session = await post('/api/auth/verify-2fa', { email, code, challenge_id: login.body.challenge_id }, login.cookie);
  await post('/api/enroll', {}, session.cookie);
  return session.cookie;
}

/**
 * A signed-in browser's cookies for a session the test started through the API: the HttpOnly
 * session cookie and the signed-in hint the SPA reads before it asks `GET /api/auth/me`
 * (functions/lib/session.ts `withSignedInHint`).
 */
export const signedInCookies = (name: string, value: string) => [
  { name, value, domain: 'localhost', path: '/', secure: true, httpOnly: true, sameSite: 'Lax' as const },
  { name: SIGNED_IN_HINT_COOKIE, value: '1', domain: 'localhost', path: '/', secure: true, httpOnly: false, sameSite: 'Lax' as const },
];
