import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import RootLayout from './layouts/root-layout';
import { me, renderRoutes, stub } from '../features/auth/testing/test-utils';
import { pageLoadError } from '../lib/chunk-reload';
import { mockFetch } from '../testing/mock-api';
import { RouteErrorBoundary } from '../components/ui/route-error-boundary';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A page that throws while `broken.now` is set, as a page with a bug in one of its states. */
const broken = { now: true };
function FlakyPage() {
  if (broken.now) throw new Error('boom');
  return <h1>Settings</h1>;
}

function GonePage(): never {
  throw pageLoadError(new TypeError('Failed to fetch dynamically imported module'));
}

const routes = [
  {
    element: (
      <RouteErrorBoundary>
        <RootLayout />
      </RouteErrorBoundary>
    ),
    children: [
      { path: '/', element: <RouteErrorBoundary>{stub('home')}</RouteErrorBoundary> },
      {
        path: '/settings',
        element: (
          <RouteErrorBoundary>
            <FlakyPage />
          </RouteErrorBoundary>
        ),
      },
      {
        path: '/dashboard',
        element: (
          <RouteErrorBoundary>
            <GonePage />
          </RouteErrorBoundary>
        ),
      },
    ],
  },
];

describe('RouteErrorBoundary', () => {
  it('shows a page that throws as a focused alert under the kept header; Try again renders it again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me() } });
    broken.now = true;
    renderRoutes(routes, '/settings');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Something went wrong on this page' })).toBeInTheDocument();
    expect(document.activeElement).toBe(alert);
    // The header with its links is still there.
    expect(await screen.findByText('Signed in as ada@example.com')).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();

    broken.now = false;
    const user = userEvent.setup();
    // Keyboard: the button is reachable with Tab from the focused message and pressed with Enter.
    await user.tab();
    expect(document.activeElement).toBe(within(alert).getByRole('button', { name: 'Try again' }));
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('clears the message when the person goes to another page through the header', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch({ 'GET /api/auth/me': { status: 401, body: {} } });
    broken.now = true;
    renderRoutes(routes, '/settings');
    await screen.findByRole('alert');
    await userEvent.click(screen.getByRole('link', { name: 'Career Program' }));
    expect(await screen.findByText('home page')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it("offers Reload when the page's code could not load", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me() } });
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    renderRoutes(routes, '/dashboard');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'This page could not load' })).toBeInTheDocument();
    expect(within(alert).getByText('The site may have been updated, or your connection dropped.')).toBeInTheDocument();
    expect(await screen.findByText('Signed in as ada@example.com')).toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
