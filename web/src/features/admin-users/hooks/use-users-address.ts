import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { PAGE_SIZES, USERS_DEFAULT_PAGE_SIZE } from '@shared/constants';
import { PAGE_PARAMS } from '@/lib/use-address-pages';

export const STATUS_VALUES = ['', 'all', 'deleted', 'active', 'locked'] as const;
export const FILTER_VALUES = ['', 'active7d', 'active30d', 'unverified', 'week1_dropoff', 'deleted'] as const;

export interface UsersAddress {
  q: string;
  filter: string;
  status: string;
  /** a module id: the learners stalled there (`stalled_at`, the dashboard funnel's row links) */
  stalledAt: string;
  /** rows per page (one of PAGE_SIZES) */
  size: number;
}

const pick = (value: string | null, allowed: readonly string[]) => (value && allowed.includes(value) ? value : '');

/**
 * q, filter, status, stalled_at and the page size live in the address (the page too: lib/use-address-pages.ts) (docs/product.md#2-screens-and-routes) so drill links and reloads land on the same
 * view. Every change replaces the history entry: typing a search must not fill the back button.
 */
export function useUsersAddress() {
  const [params, setParams] = useSearchParams();
  const address: UsersAddress = {
    q: params.get('q') ?? '',
    // docs/product.md#5-validation-rules: a status outside the known set is treated as empty; the same guard keeps the filter sane.
    filter: pick(params.get('filter'), FILTER_VALUES),
    status: pick(params.get('status'), STATUS_VALUES),
    stalledAt: params.get('stalled_at')?.trim() ?? '',
    size: (PAGE_SIZES as readonly number[]).includes(Number(params.get('size'))) ? Number(params.get('size')) : USERS_DEFAULT_PAGE_SIZE,
  };

  const update = useCallback(
    (change: Partial<Record<'q' | 'filter' | 'status' | 'size' | 'stalled_at', string>>) =>
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [key, value] of Object.entries(change)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          // the page belongs to one combination of filters: any change lands on page 1 again
          for (const key of PAGE_PARAMS) next.delete(key);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  /** Status 'deleted' and the 'deleted' cohort mean the same view: choosing one sets the other. */
  const setStatus = (status: string) => {
    if (status === 'deleted') update({ status, filter: 'deleted', stalled_at: '' });
    else update({ status, ...(address.filter === 'deleted' ? { filter: '' } : {}) });
  };

  // the stalled list is one module's learners: the API refuses it with a search or a cohort, so
  // choosing either leaves it (its chip goes)
  const setFilter = (filter: string) => {
    if (filter === 'deleted') update({ filter, status: 'deleted', stalled_at: '' });
    else update({ filter, stalled_at: '', ...(address.status === 'deleted' ? { status: '' } : {}) });
  };

  const setQuery = (q: string) => update({ q, ...(q ? { stalled_at: '' } : {}) });

  const clearStalledAt = () => update({ stalled_at: '' });

  const setSize = (size: number) => update({ size: size === USERS_DEFAULT_PAGE_SIZE ? '' : String(size) });

  return { ...address, setStatus, setFilter, setQuery, setSize, clearStalledAt };
}
