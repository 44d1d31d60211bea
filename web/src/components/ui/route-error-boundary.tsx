import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { isPageLoadError } from '../../lib/chunk-reload';
import { Button } from './button';

interface Props {
  children: ReactNode;
  /** Another page clears the error: the boundary sits at the same place for every sibling route. */
  resetKey: string;
}

interface State {
  error?: unknown;
  /** The resetKey the state belongs to. */
  key: string;
}

/** The message takes the focus as it appears, so keyboard and screen-reader users land on it. */
const focusOnAppear = (element: HTMLDivElement | null) => element?.focus();

class Boundary extends Component<Props, State> {
  override state: State = { key: this.props.resetKey };

  static getDerivedStateFromProps({ resetKey }: Props, { key }: State): State | null {
    return resetKey === key ? null : { key: resetKey, error: undefined };
  }

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? {} };
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const loadFailed = isPageLoadError(error);
    return (
      <main className="page">
        <div ref={focusOnAppear} tabIndex={-1} role="alert" className="alert alert--error">
          <h1>{loadFailed ? 'This page could not load' : 'Something went wrong on this page'}</h1>
          <p>{loadFailed ? 'The site may have been updated, or your connection dropped.' : 'Try again, or choose another page.'}</p>
          <Button onClick={loadFailed ? () => location.reload() : () => this.setState({ error: undefined })}>
            {loadFailed ? 'Reload' : 'Try again'}
          </Button>
        </div>
      </main>
    );
  }
}

/**
 * Around every route: a page that throws or whose code cannot load shows a message in its place
 * (the header and layout above it stay) instead of a blank page. "Try again" renders the page
 * again; a page whose code could not load offers "Reload". React logs the error it caught.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary resetKey={useLocation().pathname}>{children}</Boundary>;
}
