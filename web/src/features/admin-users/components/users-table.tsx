import type { KeyboardEvent } from 'react';
import type { AdminUserListItem } from '../../../../../shared/admin-types';
import { formatDate, formatOneDecimal } from '../../../utils/format';
import { StatusBadge } from './status-badge';

export interface UsersTableProps {
  users: AdminUserListItem[];
  onOpen: (id: string) => void;
}

/** The users list; a row opens the drawer by click or by Enter when focused. */
export function UsersTable({ users, onOpen }: UsersTableProps) {
  if (users.length === 0) return <p className="admin-empty">No users found.</p>;
  const onKey = (event: KeyboardEvent, id: string) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      onOpen(id);
    }
  };
  return (
    <div className="admin-table-scroll" tabIndex={0} role="region" aria-label="Users">
      <table className="admin-table">
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
            <tr
              key={user.id}
              className="admin-table__row--clickable"
              tabIndex={0}
              onClick={() => onOpen(user.id)}
              onKeyDown={(event) => onKey(event, user.id)}
            >
              <td>{user.email}</td>
              <td>{user.first_name || '—'}</td>
              <td>{user.last_name || '—'}</td>
              <td>
                <StatusBadge status={user.status} isLocked={user.is_locked} />
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
    </div>
  );
}
