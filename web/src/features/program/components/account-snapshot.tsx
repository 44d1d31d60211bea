import { Link } from 'react-router';
import { paths } from '@/config/paths';
import type { SessionUser } from '@/lib/auth';
import { displayName } from '../utils/greeting';

/** 'Account snapshot': email, name, verification status and a way to settings (docs/product.md#2-screens-and-routes). */
export function AccountSnapshot({ user }: { user: SessionUser | null | undefined }) {
  return (
    <section className="pg-card" aria-labelledby="account-snapshot-title">
      <h2 id="account-snapshot-title">Account snapshot</h2>
      <dl className="pg-facts">
        <div>
          <dt>Email</dt>
          <dd>{user?.email ?? 'Not provided'}</dd>
        </div>
        <div>
          <dt>Name</dt>
          <dd>{displayName(user)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`pg-badge ${user?.verified ? 'pg-badge--completed' : 'pg-badge--pending'}`}>
              {user?.verified ? 'Verified' : 'Pending verification'}
            </span>
          </dd>
        </div>
      </dl>
      <Link to={paths.settings} className="pg-link">
        Manage account settings
      </Link>
    </section>
  );
}
