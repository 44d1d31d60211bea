import type { MouseEvent } from 'react';
import type { AdminUserListItem } from '@shared/admin-types';
import { ScrollTable } from '@/components/ui/scroll-table';
import { formatDate, formatOneDecimal } from '@/utils/format';
import { StatusBadge } from './status-badge';

export interface UsersTableProps {
  users: AdminUserListItem[];
  onOpen: (id: string) => void;
}

/**
 * The users list. Each row opens the drawer through a real button (the email, its accessible
 * name), so keyboard and screen-reader users reach it like any control; a click anywhere else on
 * the row is a pointer shortcut to the same button. Cells wrap so every column fits at 1280 px
 * (docs/product.md#109-users-table).
 */
export function UsersTable({ users, onOpen }: UsersTableProps) {
  if (users.length === 0) return <p className="admin-empty">No users found.</p>;
  return (
    <ScrollTable label="Users">
      <table className="admin-table admin-table--users">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">First</th>
            <th scope="col">Last</th>
            <th scope="col">Status</th>
            <th scope="col">Registered</th>
            <th scope="col">Last login</th>
            <th scope="col">Role</th>
            <th scope="col">Completion %</th>
            <th scope="col">Enrollments</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id} className="admin-table__row--clickable" onClick={(event) => rowClick(event, user.id, onOpen)}>
              <td className="admin-table__email">
                <button type="button" className="admin-table__open" onClick={() => onOpen(user.id)}>
                  {user.email}
                </button>
              </td>
              <td>{user.first_name || '—'}</td>
              <td>{user.last_name || '—'}</td>
              <td>
                <StatusBadge status={user.status} isLocked={user.is_locked} />
                {user.verified === false ? <span className="admin-badge admin-badge--unverified">unverified</span> : null}
              </td>
              <td>{formatDate(user.created_at)}</td>
              <td>{formatDate(user.last_login_at)}</td>
              <td>{user.role || '—'}</td>
              <td>{formatOneDecimal(user.completion_pct)}</td>
              <td>{user.enrollments ?? 0}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}

/** A pointer click on the row outside the button (which handles its own) opens the drawer too. */
function rowClick(event: MouseEvent<HTMLTableRowElement>, id: string, onOpen: (id: string) => void) {
  if ((event.target as HTMLElement).closest('button, a')) return;
  // focus the row's button first, so closing the drawer returns focus to it
  event.currentTarget.querySelector<HTMLButtonElement>('.admin-table__open')?.focus();
  onOpen(id);
}
