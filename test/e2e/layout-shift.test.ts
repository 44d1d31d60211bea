import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { enrolledLearnerCookie, signedInCookies, useBrowser } from '../helpers/browser';

/**
 * Cumulative Layout Shift of the learner pages whose content arrives late (docs/lean-builds.md):
 * Chromium's own `layout-shift` performance entries, summed over the whole visit (all of them,
 * not only the worst session window, so this is never below the CLS a user would be scored),
 * with every API answer held back so late content really lands after the first paint.
 */
const browser = useBrowser();
const API_DELAY_MS = 400;

/** Loads `path` in a fresh tab and returns the summed layout-shift score once `ready` shows and the page is settled. */
async function layoutShift(page: Page, path: string, ready: string): Promise<{ score: number; shifts: string[] }> {
  await page.addInitScript(() => {
    const record = { score: 0, shifts: [] as string[] };
    (window as unknown as { __cls: typeof record }).__cls = record;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<
        PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node }> }
      >) {
        if (entry.hadRecentInput) continue;
        record.score += entry.value;
        const nodes = (entry.sources ?? []).map((source) =>
          source.node instanceof Element ? `${source.node.tagName.toLowerCase()}.${source.node.className}` : String(source.node?.nodeName),
        );
        record.shifts.push(`${entry.value.toFixed(4)} at ${Math.round(entry.startTime)} ms: ${nodes.join(', ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.route('**/api/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, API_DELAY_MS));
    await route.continue();
  });
  await page.goto(path);
  await page.getByText(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  // Two frames plus a pause: shifts are reported after the frame that caused them.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForTimeout(500);
  return page.evaluate(() => (window as unknown as { __cls: { score: number; shifts: string[] } }).__cls);
}

it('the learner dashboard and the module page load without layout shift (CLS ≤ 0.01), on a desktop and a phone', async () => {
  const cookie = await enrolledLearnerCookie('cls', { first: 'Grace', last: 'Hopper' }, 'harbour lantern copper');
  const [name, ...value] = cookie.split('=');
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 414, height: 896 },
  ]) {
    for (const [path, ready] of [
      ['/dashboard', 'Resume your next module'],
      ['/modules/know-your-strengths', 'Your tasks'],
    ]) {
      const page = await browser.newPage(viewport);
      await page.context().addCookies(signedInCookies(name, value.join('=')));
      const cls = await layoutShift(page, path, ready);
      console.log(
        `${path} at ${viewport.width}px: CLS ${cls.score.toFixed(4)}${cls.shifts.length ? `\n  ${cls.shifts.join('\n  ')}` : ''}`,
      );
      expect.soft(cls.score, `${path} at ${viewport.width}px: ${cls.shifts.join('; ')}`).toBeLessThanOrEqual(0.01);
      await page.close();
    }
  }
});
