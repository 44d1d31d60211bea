import { useRef } from 'react';
import { Outlet } from 'react-router';
import { RouteFocus } from './route-focus';
import { SiteHeader } from './site-header';

/**
 * Every page: a skip link, the header, the page itself and a footer. Pages render their own
 * <main>; the wrapper is only the skip link's focus target.
 */
export default function RootLayout() {
  const content = useRef<HTMLDivElement>(null);
  return (
    <div className="app-shell">
      <RouteFocus container={content} />
      <a className="skip-link" href="#content">
        Skip to main content
      </a>
      <SiteHeader />
      <div id="content" ref={content} className="app-content" tabIndex={-1}>
        <Outlet />
      </div>
      <footer className="site-footer">
        <p>Career Program · 4-Week Career Program</p>
      </footer>
    </div>
  );
}
