import { expect, it } from 'vitest';
import { useBrowser } from '../helpers/browser';

const browser = useBrowser();

/**
 * A deploy while a tab is open: the tab's index.html names hashed files the deploy removed. Here
 * every script the tab has not loaded yet answers 404, as the removed files do: the next page's
 * code cannot load. The tab reloads once (sessionStorage guards the loop); when the page's code
 * is still missing after that, the page shows a message under the header with "Reload", never a
 * blank page.
 */
it('reloads once when a page’s code is gone, then shows the message with Reload under the header', async () => {
  const page = await browser.newPage();
  const loadedScripts = new Set<string>();
  page.on('response', (answer) => {
    if (answer.ok() && /\/assets\/.+\.js$/.test(new URL(answer.url()).pathname)) loadedScripts.add(answer.url());
  });
  await page.goto('/');
  await expect.poll(() => page.getByRole('heading', { name: 'Secure career insights' }).isVisible()).toBe(true);
  expect(loadedScripts.size).toBeGreaterThan(0);

  // "The deploy": what the tab has not fetched yet is gone.
  const refused: string[] = [];
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    if (loadedScripts.has(route.request().url())) return route.continue();
    refused.push(new URL(route.request().url()).pathname);
    return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
  });
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
  });

  await page.getByRole('link', { name: 'Log in' }).click();

  const alert = page.getByRole('alert');
  await expect.poll(() => alert.getByRole('heading', { name: 'This page could not load' }).isVisible()).toBe(true);
  // One reload, on the page the person asked for; the second failure stops there.
  expect(documents).toEqual(['/login']);
  expect(refused.length).toBeGreaterThanOrEqual(2);
  expect(await page.evaluate(() => sessionStorage.getItem('career.chunkReloadFor'))).toBe('/login');
  // The header stays, the message has the focus.
  expect(await page.getByRole('link', { name: 'Career Program' }).isVisible()).toBe(true);
  expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Register' }).isVisible()).toBe(true);
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="alert"]') !== null)).toBe(true);
  const reload = alert.getByRole('button', { name: 'Reload' });
  expect(await reload.isVisible()).toBe(true);

  // The files are back (the person's connection, or a cached copy): Reload shows the page, and
  // the tab may reload once again on the next failure.
  await page.unroute(/\/assets\/.+\.js$/);
  await reload.click();
  await expect.poll(() => page.getByRole('form', { name: 'Log in' }).isVisible()).toBe(true);
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('career.chunkReloadFor'))).toBeNull();
  expect(documents).toEqual(['/login', '/login']);
});
