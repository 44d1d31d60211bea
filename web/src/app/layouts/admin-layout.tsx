import { NavLink, Outlet } from 'react-router';
import { paths } from '../../config/paths';

/** docs/product.md#2-screens-and-routes Admin routes: a sidebar beside every admin page. */
export function AdminLayout() {
  return (
    <div className="admin-layout">
      <aside className="admin-sidebar">
        <nav aria-label="Admin">
          <ul>
            <li>
              <NavLink to={paths.admin.dashboard}>Dashboard</NavLink>
            </li>
            <li>
              <NavLink to={paths.admin.users}>Users</NavLink>
            </li>
            <li>
              <NavLink to={paths.admin.audit}>Audit log</NavLink>
            </li>
            <li>
              <NavLink to={paths.admin.program}>Program</NavLink>
            </li>
          </ul>
        </nav>
        <p className="note">More admin tools coming soon</p>
      </aside>
      <div className="admin-main">
        <Outlet />
      </div>
    </div>
  );
}
