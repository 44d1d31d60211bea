import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_KEY, isPageLoadError, reloadOnceOnFailure } from './chunk-reload';

const Page = () => null;
const gone = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/settings-abc.js'));
const settled = async (promise: Promise<unknown>) => {
  const outcome = await Promise.race([
    promise.then(
      () => 'loaded',
      (error: unknown) => error,
    ),
    new Promise((r) => setTimeout(() => r('pending'), 0)),
  ]);
  return outcome;
};

afterEach(() => vi.unstubAllGlobals());

describe('reloadOnceOnFailure', () => {
  it('reloads the tab once when a page module cannot load, and keeps the old screen meanwhile', async () => {
    const reload = vi.fn();
    expect(await settled(reloadOnceOnFailure(gone, true, reload)())).toBe('pending');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe(window.location.pathname);
  });

  it('after that reload, a second failure on the same page ends in a PageLoadError, not another reload', async () => {
    sessionStorage.setItem(CHUNK_RELOAD_KEY, window.location.pathname);
    const reload = vi.fn();
    const outcome = await settled(reloadOnceOnFailure(gone, true, reload)());
    expect(outcome).toSatisfy(isPageLoadError);
    expect(reload).not.toHaveBeenCalled();
  });

  it('forgets the reload once a page’s code is in (the next deploy reloads again), not when only a layout’s is', async () => {
    const loads = () => Promise.resolve({ default: Page });
    sessionStorage.setItem(CHUNK_RELOAD_KEY, window.location.pathname);
    await reloadOnceOnFailure(loads, false, vi.fn())();
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe(window.location.pathname);
    await reloadOnceOnFailure(loads, true, vi.fn())();
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBeNull();
    const reload = vi.fn();
    expect(await settled(reloadOnceOnFailure(gone, true, reload)())).toBe('pending');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does not reload offline (the browser would show its own offline page)', async () => {
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    const reload = vi.fn();
    const outcome = await settled(reloadOnceOnFailure(gone, true, reload)());
    expect(outcome).toSatisfy(isPageLoadError);
    expect(reload).not.toHaveBeenCalled();
  });

  it('passes a module that loads through untouched', async () => {
    const module = { default: Page };
    const reload = vi.fn();
    await expect(reloadOnceOnFailure(() => Promise.resolve(module), true, reload)()).resolves.toBe(module);
    expect(reload).not.toHaveBeenCalled();
  });
});
