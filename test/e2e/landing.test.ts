import { expect, it } from 'vitest';
import { useBrowser } from '../helpers/browser';

const browser = useBrowser();

it('serves the landing page from the local runtime to headless Chromium', async () => {
  const page = await browser.newPage();
  // A visitor's browser holds no signed-in hint: the SPA asks no one who is signed in, so neither
  // the landing nor the sign-in page logs a 401 from GET /api/auth/me.
  const sessionProbes: number[] = [];
  const consoleErrors: string[] = [];
  page.on('response', (answer) => {
    if (new URL(answer.url()).pathname === '/api/auth/me') sessionProbes.push(answer.status());
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect.poll(() => page.getByRole('heading', { name: 'Secure career insights' }).isVisible()).toBe(true);
  const getStarted = page.getByRole('link', { name: 'Get started' });
  expect(await getStarted.getAttribute('href')).toBe('/register');
  await page.goto('/login');
  await expect.poll(() => page.getByRole('form', { name: 'Log in' }).isVisible()).toBe(true);
  expect(sessionProbes.filter((status) => status === 401)).toEqual([]);
  expect(consoleErrors).toEqual([]);
  expect((await page.request.get('/robots.txt')).status()).toBe(200);
});

it('answers deep links with the SPA (fallback to index.html)', async () => {
  const page = await browser.newPage();
  const response = await page.goto('/some/deep/link');
  expect(response?.status()).toBe(200);
  expect(await page.locator('#root').count()).toBe(1);
});
