import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

const SITE = 'Career Program';

/** Each route's own document title ("Dashboard · Career Program"). */
const TITLES: Array<[RegExp, string]> = [
  [/^\/$/, SITE],
  [/^\/login$/, 'Log in'],
  [/^\/register$/, 'Register'],
  [/^\/forgot-password$/, 'Forgot password'],
  [/^\/reset-password$/, 'Reset password'],
  [/^\/dashboard$/, 'Dashboard'],
  [/^\/enroll$/, 'Preparing your journey'],
  [/^\/settings$/, 'Settings'],
  [/^\/modules\//, 'Module'],
  [/^\/certificate$/, 'Your certificate'],
  [/^\/certificates\/[^/]+$/, 'Certificate check'],
  [/^\/account-deleted$/, 'Account deleted'],
  [/^\/admin\/dashboard$/, 'Admin dashboard'],
  [/^\/admin\/users$/, 'Users'],
  [/^\/admin\/audit$/, 'Audit log'],
];

export function documentTitle(pathname: string): string {
  const match = TITLES.find(([pattern]) => pattern.test(pathname));
  if (!match) return `Page not found · ${SITE}`;
  return match[1] === SITE ? SITE : `${match[1]} · ${SITE}`;
}

/**
 * On every route change (not the first load): the document title follows the page, and focus
 * moves to the page's heading, so screen-reader and keyboard users start at the new page
 * instead of wherever the old one left them (docs/product.md#10-journeys).
 */
export function RouteFocus({ container }: { container: React.RefObject<HTMLElement | null> }) {
  const { pathname } = useLocation();
  const first = useRef(true);

  useEffect(() => {
    document.title = documentTitle(pathname);
    if (first.current) {
      first.current = false;
      return;
    }
    // Pages load lazily: wait for the heading to appear (bounded).
    let tries = 0;
    const timer = setInterval(() => {
      const heading = container.current?.querySelector<HTMLElement>('h1');
      if (heading || ++tries > 40) {
        clearInterval(timer);
        if (!heading) return;
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: false });
      }
    }, 50);
    return () => clearInterval(timer);
  }, [pathname, container]);

  return null;
}
