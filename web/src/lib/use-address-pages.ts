import { useSearchParams } from 'react-router';

/** The page's own cursor is in the address; the cursors of pages seen before are kept here, per list view. */
const seenCursors = new Map<string, Map<number, string>>();

/** Highest page a typed address may ask for (the server's bound too). */
const MAX_PAGE = 1000;

/** The address parameters of paging: any change of the view's filters deletes them (back to page 1). */
export const PAGE_PARAMS = ['page', 'cursor'] as const;

/**
 * Cursor paging kept in the address (`?page=2&cursor=…`, docs/journeys.md#9-users-table): a
 * reload or Back lands on the same page. Next and Previous push a history entry, like links.
 * Previous uses the cursor seen for that page; without one (after a reload) it asks for the page
 * number alone and the server walks to it (functions/admin/paging.ts). `view` names the list
 * (filters + page size) so cursors of one view are never sent with another.
 */
export function useAddressPages(view: string) {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get('page'));
  const page = Number.isInteger(raw) && raw > 1 ? Math.min(raw, MAX_PAGE) : 1;
  const cursor = page > 1 ? params.get('cursor') || undefined : undefined;
  const seen = seenCursors.get(view) ?? new Map<number, string>();
  seenCursors.set(view, seen);
  if (cursor) seen.set(page, cursor);

  const go = (target: number, targetCursor: string | undefined) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      for (const key of PAGE_PARAMS) next.delete(key);
      if (target > 1) {
        next.set('page', String(target));
        if (targetCursor) next.set('cursor', targetCursor);
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
      go(page + 1, nextCursor ?? undefined);
    },
    previous: () => go(page - 1, seen.get(page - 1)),
  };
}
