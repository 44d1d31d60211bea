import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { useLogout } from '../../features/auth/api/logout';
import { isAdmin, useUser } from '../../lib/auth';

/** docs/product.md#2-screens-and-routes Header: the product title, then the signed-in or signed-out links. */
export function SiteHeader() {
  const { data: user, isPending } = useUser();
  const logout = useLogout();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // On phones the signed-in links sit behind a Menu button, so the header stays one line.
  // The menu remembers the page it was opened on: a navigation closes it without an effect.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const headerRef = useRef<HTMLElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);

  // An open menu closes on Escape (focus back on its button) and on a tap or click outside the header.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpenOn(null);
      menuButtonRef.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!headerRef.current?.contains(event.target as Node)) setMenuOpenOn(null);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [menuOpen]);

  const signOut = () => logout.mutate(undefined, { onSettled: () => void navigate(paths.home, { replace: true }) });

  return (
    <header className="site-header" ref={headerRef}>
      <Link to={paths.home} className="brand">
        Career Program
      </Link>
      {/* Nothing until the session is known, so signed-in users never see a flash of "Log in". */}
      {isPending ? null : user ? (
        <button
          ref={menuButtonRef}
          type="button"
          className="site-menu-button button button--secondary"
          aria-expanded={menuOpen}
          aria-controls="site-nav-main"
          onClick={() => setMenuOpenOn(menuOpen ? null : pathname)}
        >
          Menu
        </button>
      ) : null}
      {isPending ? null : user ? (
        <nav
          id="site-nav-main"
          // On an admin page the sidebar carries the admin links: a phone's menu leaves them out (index.css).
          className={`site-nav site-nav--menu${menuOpen ? ' site-nav--open' : ''}${pathname.startsWith('/admin') ? ' site-nav--in-admin' : ''}`}
          aria-label="Main"
        >
          <span className="site-nav__who">Signed in as {user.email}</span>
          <NavLink to={paths.dashboard}>Dashboard</NavLink>
          {isAdmin(user) ? (
            <>
              <NavLink to={paths.admin.dashboard} className="site-nav__admin">
                Admin
              </NavLink>
              <NavLink to={paths.admin.users} className="site-nav__admin">
                Users
              </NavLink>
              <NavLink to={paths.admin.audit} className="site-nav__admin">
                Audit
              </NavLink>
            </>
          ) : null}
          <NavLink to={paths.settings}>Settings</NavLink>
          <Button variant="secondary" onClick={signOut} disabled={logout.isPending}>
            Log out
          </Button>
        </nav>
      ) : (
        <nav className="site-nav" aria-label="Main">
          <NavLink to={paths.login}>Log in</NavLink>
          <NavLink to={paths.register}>Register</NavLink>
        </nav>
      )}
    </header>
  );
}
