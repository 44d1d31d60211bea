import { expect, it } from 'vitest';
import { useBrowser } from '../helpers/browser';

const browser = useBrowser();

it('serves the landing page from the local runtime to headless Chromium', async () => {
  const page = await browser.newPage();
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect.poll(() => page.getByRole('heading', { name: 'Secure career insights' }).isVisible()).toBe(true);
  const getStarted = page.getByRole('link', { name: 'Get started' });
  expect(await getStarted.getAttribute('href')).toBe('/register');
});

it('answers deep links with the SPA (fallback to index.html)', async () => {
  const page = await browser.newPage();
  const response = await page.goto('/some/deep/link');
  expect(response?.status()).toBe(200);
  expect(await page.locator('#root').count()).toBe(1);
});
