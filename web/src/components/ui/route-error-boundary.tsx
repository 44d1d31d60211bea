import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { PageLoadError } from '../../lib/chunk-reload';
import { Button } from './button';

interface Props {
  children: ReactNode;
  /** Another page clears the error: the boundary sits at the same place for every sibling route. */
  resetKey: string;
  /** The root route has no header above it: the message brings the site's name and home link. */
  withShell?: boolean;
}

interface State {
  error: unknown;
  /** The resetKey the state belongs to. */
  key: string;
}

/** The message takes the focus as it appears, so keyboard and screen-reader users land on it. */
const focusOnAppear = (element: HTMLDivElement | null) => element?.focus();

class Boundary extends Component<Props, State> {
  override state: State = { error: undefined, key: this.props.resetKey };

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.key ? null : { error: undefined, key: props.resetKey };
  }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('unknown error') };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('A page failed to render', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const message = <RouteErrorMessage error={error} onTryAgain={() => this.setState({ error: undefined })} />;
    if (!this.props.withShell) return message;
    return (
      <div className="app-shell">
        <header className="site-header">
          <a href="/" className="brand">
            Career Program
          </a>
        </header>
        <div className="app-content">{message}</div>
      </div>
    );
  }
}

function RouteErrorMessage({ error, onTryAgain }: { error: unknown; onTryAgain: () => void }) {
  const loadFailed = error instanceof PageLoadError;
  return (
    <main className="page">
      <div ref={focusOnAppear} tabIndex={-1} role="alert" className="alert alert--error route-error">
        {loadFailed ? (
          <>
            <h1>This page could not load</h1>
            <p>
              {error.offline
                ? 'You seem to be offline. Reconnect, then reload the page.'
                : 'The site may have been updated since you opened it. Reloading fetches the latest version.'}
            </p>
            <Button onClick={() => window.location.reload()}>Reload</Button>
          </>
        ) : (
          <>
            <h1>Something went wrong on this page</h1>
            <p>The rest of the site still works. Try again, or choose another page above.</p>
            <Button onClick={onTryAgain}>Try again</Button>
          </>
        )}
      </div>
    </main>
  );
}

/**
 * Around every route: a page that throws or whose code cannot load shows a message in its place
 * (the header and layout above it stay) instead of a blank page. "Try again" renders the page
 * again; a page whose code could not load offers "Reload".
 */
export function RouteErrorBoundary({ children, withShell }: { children: ReactNode; withShell?: boolean }) {
  const { pathname } = useLocation();
  return (
    <Boundary resetKey={pathname} withShell={withShell}>
      {children}
    </Boundary>
  );
}
