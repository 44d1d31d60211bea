/**
 * A written answer stays in this browser until the server confirms its save
 * (docs/product.md#4-states-and-transitions): a save that meets an ended session, a closed tab or
 * a reload does not lose the text. Keyed by account, module and task, so another account on the
 * same browser never sees it; signing out on purpose forgets them all.
 */
const PREFIX = 'career.draft.';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const draftKey = (userId: string, slug: string, taskId: string) => `${PREFIX}${userId}.${slug}.${taskId}`;

export function readDraft(userId: string, slug: string, taskId: string): string | null {
  return storage()?.getItem(draftKey(userId, slug, taskId)) ?? null;
}

export function keepDraft(userId: string, slug: string, taskId: string, text: string): void {
  try {
    storage()?.setItem(draftKey(userId, slug, taskId), text);
  } catch {
    // A full or refused storage only loses the safety copy; the text is still on the page.
  }
}

export function forgetDraft(userId: string, slug: string, taskId: string): void {
  storage()?.removeItem(draftKey(userId, slug, taskId));
}

export function forgetAllDrafts(): void {
  const store = storage();
  if (!store) return;
  const keys = Array.from({ length: store.length }, (_, index) => store.key(index)).filter((key) => key?.startsWith(PREFIX));
  for (const key of keys) if (key) store.removeItem(key);
}
