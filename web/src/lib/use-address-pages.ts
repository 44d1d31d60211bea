import { useSearchParams } from 'react-router';
import { MAX_PAGE_WITHOUT_CURSOR } from '@shared/constants';

/** The cursors of pages seen before, per list view (Back and Forward land on pages read already). */
const seenCursors = new Map<string, Map<number, string>>();

/** Highest page number the address may carry with a cursor (the server's bound too). */
const MAX_PAGE = 1000;

/**
 * Cursors of the pages before this one that the address keeps: enough for a long Previous walk
 * after a reload, while the address stays far below the 8 KB a URL may have behind CloudFront
 * (a cursor is ~200 characters).
 */
export const MAX_BACK_CURSORS = 20;

/** The address parameters of paging: any change of the view's filters deletes them (back to page 1). */
export const PAGE_PARAMS = ['page', 'cursor', 'back'] as const;

/**
 * Cursor paging kept in the address (`?page=3&cursor=…&back=…`, docs/product.md#109-users-table):
 * a reload or Back lands on the same page, and Previous after a reload still has the cursor of
 * the page before. `cursor` is the page's own cursor; `back` (repeated, oldest first) the cursors
 * of the pages just before it, the last one for page − 1 (empty: that page was asked by number).
 * Next and Previous push a history entry, like links. A page without a known cursor is asked by
 * its number up to MAX_PAGE_WITHOUT_CURSOR (the server walks to it, functions/admin/paging.ts);
 * a deeper one cannot be, so the list starts again at page 1. `view` names the list (filters +
 * page size) so cursors of one view are never sent with another.
 */
export function useAddressPages(view: string) {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('page'));
  const asked = Number.isInteger(raw) && raw > 1 ? Math.min(raw, MAX_PAGE) : 1;
  const cursor = asked > 1 ? params.get('cursor') || undefined : undefined;
  // a deep page typed without its cursor would be refused: the list starts at page 1 instead
  const page = cursor || asked <= MAX_PAGE_WITHOUT_CURSOR ? asked : 1;
  // page 1 needs no cursor: at most the pages 2 … page − 1
  const kept = Math.min(MAX_BACK_CURSORS, Math.max(0, page - 2));
  const back = kept ? params.getAll('back').slice(-kept) : [];
  const seen = seenCursors.get(view) ?? new Map<number, string>();
  seenCursors.set(view, seen);
  if (cursor) seen.set(page, cursor);

  const go = (target: number, targetCursor: string | undefined, targetBack: string[]) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      for (const key of PAGE_PARAMS) next.delete(key);
      if (target > 1 && (targetCursor || target <= MAX_PAGE_WITHOUT_CURSOR)) {
        next.set('page', String(target));
        if (targetCursor) next.set('cursor', targetCursor);
        for (const earlier of targetBack.slice(-MAX_BACK_CURSORS)) next.append('back', earlier);
      }
      return next;
    });

  return {
    /** 1-based page number */
    page,
    /** the cursor of the current page (undefined on page 1, or when none is known: then `page` is used) */
    cursor,
    next: (nextCursor: string | null | undefined) => {
      if (nextCursor) seen.set(page + 1, nextCursor);
      go(page + 1, nextCursor ?? undefined, page > 1 ? [...back, cursor ?? ''] : []);
    },
    previous: () => go(page - 1, back.at(-1) || seen.get(page - 1), back.slice(0, -1)),
  };
}
