import type { ComponentType } from 'react';

/**
 * A page's code that could not be fetched: after a deploy the hashed files the open tab knows
 * are gone (the deploy replaces them), or the connection dropped.
 */
export class PageLoadError extends Error {
  readonly offline: boolean;
  constructor(cause: unknown, offline: boolean) {
    super('The code of this page could not be loaded.', { cause });
    this.name = 'PageLoadError';
    this.offline = offline;
  }
}

/** sessionStorage: the path the tab already reloaded for, so a second failure there stops. */
export const CHUNK_RELOAD_KEY = 'career.chunkReloadFor';

const storage = (): Storage | undefined => {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
};

/** The tab loaded a page whole: a later failure (the next deploy) may reload once again. */
export function forgetChunkReload(): void {
  try {
    storage()?.removeItem(CHUNK_RELOAD_KEY);
  } catch {
    // storage refused: nothing was kept either
  }
}

/**
 * Wraps a route module's import. When it fails while online, the page reloads once (the new
 * index.html names the new files); a failure on the same path after that reload, a failure
 * offline (a reload would show the browser's own offline page) or a tab without sessionStorage
 * (no guard against a reload loop) ends in a PageLoadError for the route's error boundary.
 */
export function reloadOnceOnFailure<T extends { default: ComponentType }>(
  load: () => Promise<T>,
  reload: () => void = () => window.location.reload(),
): () => Promise<T> {
  return () =>
    load().catch((error: unknown) => {
      const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
      const path = window.location.pathname;
      const store = storage();
      let reloading = false;
      if (!offline && store) {
        try {
          if (store.getItem(CHUNK_RELOAD_KEY) !== path) {
            store.setItem(CHUNK_RELOAD_KEY, path);
            reloading = true;
          }
        } catch {
          reloading = false;
        }
      }
      if (!reloading) throw new PageLoadError(error, offline);
      reload();
      // The page is going away: keep what is on screen until it does.
      return new Promise<T>(() => undefined);
    });
}
