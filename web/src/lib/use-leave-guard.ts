import { useContext, useEffect, useState } from 'react';
import { UNSAFE_NavigationContext } from 'react-router';

type Go = (...args: unknown[]) => void;
interface PatchableNavigator {
  push: Go;
  replace: Go;
}

/**
 * Asks before leaving a page with unsaved work, while `active`: an in-app navigation (a link, the
 * header, a redirect) waits until the page answers with `leave()` or `stay()`, and closing or
 * reloading the tab gets the browser's own "Leave site?" question (`beforeunload`).
 *
 * react-router's `useBlocker` needs the data router, which the app does not use (it adds ~16 KB
 * gzip to every learner's first load, docs/lean-builds.md), so the guard holds the router's
 * navigator's `push`/`replace` — what every `<Link>` and `navigate()` of the declarative router
 * calls — and puts them back when no longer active. Back and forward buttons are not held (the
 * declarative router learns of them after the address changed); pages using the guard keep their
 * work elsewhere too (e.g. in the browser's storage).
 */
export function useLeaveGuard(active: boolean) {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const [pending, setPending] = useState<{ go: () => void } | null>(null);

  useEffect(() => {
    if (!active) return;
    const release = holdNavigations(navigator as unknown as PatchableNavigator, (go) => setPending({ go }));
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // older browsers ask only when returnValue is set
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      release();
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [active, navigator]);

  return {
    /** An in-app navigation is waiting for the answer. */
    asking: pending !== null,
    leave: () => {
      setPending(null);
      pending?.go();
    },
    stay: () => setPending(null),
  };
}

/** Until released, each push or replace is handed to `hold` as a function that performs it. */
function holdNavigations(navigator: PatchableNavigator, hold: (go: () => void) => void): () => void {
  const { push, replace } = navigator;
  navigator.push = (...args) => hold(() => push.apply(navigator, args));
  navigator.replace = (...args) => hold(() => replace.apply(navigator, args));
  return () => {
    navigator.push = push;
    navigator.replace = replace;
  };
}
