import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { FormAlert } from '@/components/ui/form-alert';
import { ExportCsvButton } from '@/components/ui/export-csv-button';
import { LoadingText } from '@/components/ui/loading-text';
import { useAddressPages } from '@/lib/use-address-pages';
import { exportUsersCsvPath } from '../api/export-users-csv';
import { useUsers } from '../api/get-users';
import { useDebouncedSearch } from '../hooks/use-debounced-search';
import { useUsersAddress } from '../hooks/use-users-address';
import { errorText } from '../utils/error-text';
import { Pagination } from './pagination';
import { StalledChip } from './stalled-chip';
import { UserDrawer } from './user-drawer';
import { UsersFilters } from './users-filters';
import { UsersTable } from './users-table';
import '../admin-users.css';

/** /admin/users: filters and page kept in the address, a paged table, and the user drawer. */
export function UsersPage() {
  const {
    q,
    filter,
    status,
    stalledAt,
    size: pageSize,
    setQuery,
    setFilter,
    setStatus,
    setSize: setPageSize,
    clearStalledAt,
  } = useUsersAddress();
  const [search, setSearch] = useDebouncedSearch(q, setQuery);
  // `?user=<id>` (a target link in the audit log) opens that user's drawer.
  const [params, setParams] = useSearchParams();
  const [openId, setOpenIdState] = useState<string | null>(() => params.get('user'));
  const setOpenId = (id: string | null) => {
    setOpenIdState(id);
    if (!id && params.has('user')) {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.delete('user');
          return next;
        },
        { replace: true },
      );
    }
  };

  // The page is in the address too; any change of the filters lands on page 1 again (use-users-address.ts).
  const paging = useAddressPages(JSON.stringify([q, filter, status, stalledAt, pageSize]));
  const page = paging.page;

  const users = useUsers({ page, cursor: paging.cursor, pageSize, query: q, filter, status, stalledAt });

  return (
    <main className="page admin-users">
      <h1>Users</h1>
      <UsersFilters
        search={search}
        onSearch={setSearch}
        status={status}
        onStatus={setStatus}
        filter={filter}
        onFilter={setFilter}
        pageSize={pageSize}
        onPageSize={setPageSize}
      />
      {stalledAt ? (
        <StalledChip moduleId={stalledAt} onRemove={clearStalledAt} />
      ) : (
        // the export has no stalled-at list: offered for the lists it writes
        <ExportCsvButton path={exportUsersCsvPath({ query: q, filter, status })} fallbackName="users.csv" />
      )}
      {users.isPending ? (
        <LoadingText>Loading users…</LoadingText>
      ) : users.isError ? (
        <FormAlert>{errorText(users.error, 'Failed to load users')}</FormAlert>
      ) : (
        <>
          <UsersTable users={users.data.items} onOpen={setOpenId} />
          {users.data.truncated ? <p className="admin-users__note">More accounts may match: Next continues the search.</p> : null}
          <Pagination
            label="Users pages"
            total={users.data.total}
            totalIsEstimate={users.data.total_is_estimate}
            page={page}
            // while the next page loads, the rows shown are the previous page's: no second Next yet
            hasNext={users.data.has_next && !users.isPlaceholderData}
            onPage={(next) => (next > page ? paging.next(users.data.next_cursor) : paging.previous())}
            shown={users.data.items.length}
            pageSize={pageSize}
          />
        </>
      )}
      {openId ? <UserDrawer userId={openId} onClose={() => setOpenId(null)} /> : null}
    </main>
  );
}
