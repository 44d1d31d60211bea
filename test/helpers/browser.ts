import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';

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

/** A browser for the test file; `newPage()` gives a fresh context (its own cookies). */
export function useBrowser() {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
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
