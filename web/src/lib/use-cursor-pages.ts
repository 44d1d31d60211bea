import { useState } from 'react';
import { formatCountAtLeast } from '../utils/format';

/**
 * Cursor paging for the admin lists (docs/scale-reads.md): the server answers `next_cursor`, a
 * page costs one page whatever its number. Next pushes the cursor, Previous pops it (the stack
 * keeps every page's cursor, and TanStack Query's cache answers pages already seen). The stack
 * belongs to one `view` (filters + page size): any change of it lands on page 1 again.
 */
export function useCursorPages(view: string) {
  const [state, setState] = useState<{ view: string; cursors: string[] }>({ view, cursors: [] });
  const cursors = state.view === view ? state.cursors : [];
  return {
    /** 1-based page number */
    page: cursors.length + 1,
    /** the cursor of the current page (undefined on page 1, or when the server gave none: then `page` is used) */
    cursor: cursors.at(-1) || undefined,
    next: (nextCursor: string | null | undefined) => setState({ view, cursors: [...cursors, nextCursor ?? ''] }),
    previous: () => setState({ view, cursors: cursors.slice(0, -1) }),
  };
}

/** 'N', or 'N+' with thousands separators when the server's total is a bound (`total_is_estimate`). */
export const totalText = (total: number, estimate?: boolean) => (estimate ? formatCountAtLeast(total) : String(total));
