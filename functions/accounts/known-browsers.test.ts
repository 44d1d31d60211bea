import { describe, expect, it } from 'vitest';
import { BROWSER_COOKIE, browserSignIn, KNOWN_BROWSERS_KEPT } from './known-browsers';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const TODAY = Math.floor(NOW / (24 * 3600 * 1000));
const cookieOf = (id: string) => `${BROWSER_COOKIE}=${id}`;
const BROWSER = 'browser-id-aaaaaaaaaaaaaa';

/** The map key of a browser: what a sign-in from it adds to an empty map. */
async function keyOf(browserId: string) {
  return Object.keys((await browserSignIn({ id: 'u-1', known_browsers: {} }, cookieOf(browserId), NOW)).knownBrowsers)[0];
}

describe('the known browsers an account keeps', () => {
  it('keeps the browser of the sign-in with its day, and its cookie id', async () => {
    const signIn = await browserSignIn({ id: 'u-1', known_browsers: {} }, cookieOf(BROWSER), NOW);
    expect(Object.values(signIn.knownBrowsers)).toEqual([TODAY]);
    expect(signIn.cookie).toMatch(new RegExp(`^${BROWSER_COOKIE}=${BROWSER}; `));
  });

  it(`keeps the ${KNOWN_BROWSERS_KEPT} most recent, dropping the ones unused longest and those older than 400 days`, async () => {
    const older = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`other-${i}`, TODAY - 10 * (i + 1)]));
    const signIn = await browserSignIn({ id: 'u-1', known_browsers: { ...older, ancient: TODAY - 400 } }, cookieOf(BROWSER), NOW);
    expect(Object.keys(signIn.knownBrowsers).sort()).toEqual(
      [await keyOf(BROWSER), 'other-0', 'other-1', 'other-2', 'other-3', 'other-4'].sort(),
    );
  });

  it('tells a new browser from the map the account write replaced', async () => {
    const key = await keyOf(BROWSER);
    const signIn = await browserSignIn({ id: 'u-1', known_browsers: {} }, cookieOf(BROWSER), NOW);
    expect(signIn.isNew({})).toBe(false); // the account's first browser: nothing to compare with
    expect(signIn.isNew({ [key]: TODAY - 30 })).toBe(false);
    expect(signIn.isNew({ other: TODAY - 1 })).toBe(true);
    expect(signIn.isNew({ [key]: TODAY - 400, other: TODAY - 1 })).toBe(true); // seen more than 400 days ago
  });

  it('gives a browser without a usable cookie a new id, new to an account that knows others', async () => {
    const signIn = await browserSignIn({ id: 'u-1', known_browsers: { other: TODAY } }, cookieOf('short'), NOW);
    expect(signIn.cookie).not.toContain('=short;');
    expect(signIn.isNew({ other: TODAY })).toBe(true);
  });
});
