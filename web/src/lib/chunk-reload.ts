import type { ComponentType } from 'react';

/** sessionStorage: the path the tab already reloaded for, so a second failure there stops. */
export const CHUNK_RELOAD_KEY = 'career.chunkReloadFor';

/**
 * What a route meets when its code could not be fetched: after a deploy the hashed files the
 * open tab knows are gone (the deploy replaces them), or the connection dropped.
 */
export type PageLoadError = Error & { pageLoad: true };

export const isPageLoadError = (error: unknown): error is PageLoadError => !!(error as PageLoadError | null)?.pageLoad;

export const pageLoadError = (cause: unknown): PageLoadError =>
  Object.assign(new Error('page code', { cause }), { pageLoad: true as const });

/**
 * Wraps a route module's import. When it fails while online, the page reloads once (the new
 * index.html names the new files); a failure on the same path after that reload, a failure
 * offline (a reload would show the browser's own offline page) or a tab without sessionStorage
 * (no guard against a reload loop) ends in a PageLoadError for the route's error boundary.
 *
 * A `page` (a route without children) loads only after its layouts have: once its code is in,
 * the path's code is whole and the tab forgets its reload, so the next deploy gets one too.
 */
export const reloadOnceOnFailure =
  <T extends { default: ComponentType }>(load: () => Promise<T>, page: boolean, reload = () => location.reload()) =>
  (): Promise<T> =>
    load().then(
      (module) => {
        if (page)
          try {
            sessionStorage.removeItem(CHUNK_RELOAD_KEY);
          } catch {
            // storage refused: nothing was kept either
          }
        return module;
      },
      (cause: unknown) => {
        try {
          if (navigator.onLine && sessionStorage.getItem(CHUNK_RELOAD_KEY) !== location.pathname) {
            sessionStorage.setItem(CHUNK_RELOAD_KEY, location.pathname);
            reload();
            // The page is going away: keep what is on screen until it does.
            return new Promise<T>(() => undefined);
          }
        } catch {
          // no storage: no guard against a reload loop, so no reload
        }
        throw pageLoadError(cause);
      },
    );
