import type { ProgramContentJson } from '@shared/program-authoring';

/**
 * Unsaved program edits kept in this browser until the draft is saved or the author discards
 * them, so a reload, a closed tab or a crash never loses them (docs/product.md#program-authoring).
 * One entry per administrator (another account on this browser never sees it), holding the draft
 * revision and content the edits started from: edits offered back after someone else saved go
 * through the same conflict view as a refused save. Logging out keeps them: they are the
 * author's unpublished writing, not personal data, and only the same administrator gets them back.
 */
export interface KeptEdits {
  revision: number;
  base: ProgramContentJson;
  content: ProgramContentJson;
  kept_at: string;
}

const keyOf = (adminId: string) => `career.program-edits.${adminId}`;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function readKeptEdits(adminId: string): KeptEdits | null {
  const text = storage()?.getItem(keyOf(adminId));
  if (!text) return null;
  try {
    const kept = JSON.parse(text) as KeptEdits;
    return typeof kept.revision === 'number' && kept.content?.weeks && kept.base?.weeks ? kept : null;
  } catch {
    return null;
  }
}

/** Keeps them; answers what was stored, so this page can later forget only its own copy. */
export function keepEdits(adminId: string, kept: KeptEdits): string {
  const text = JSON.stringify(kept);
  try {
    storage()?.setItem(keyOf(adminId), text);
  } catch {
    // A full storage keeps the previous copy; the edits are still on the page.
  }
  return text;
}

/** Whether this browser lets the page keep edits at all (not in a mode that blocks storage). */
export function canKeepEdits(): boolean {
  const probe = 'career.program-edits.probe';
  try {
    const store = storage();
    if (!store) return false;
    store.setItem(probe, '1');
    store.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}

/** Forgets the kept edits; with `written`, only if they are still that copy (not another tab's since). */
export function forgetEdits(adminId: string, written?: string): void {
  const store = storage();
  if (written !== undefined && store?.getItem(keyOf(adminId)) !== written) return;
  store?.removeItem(keyOf(adminId));
}
