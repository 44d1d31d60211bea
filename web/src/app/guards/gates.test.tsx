import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, renderRoutes, stub } from '../../features/auth/testing/test-utils';
import { mockFetch } from '../../testing/mock-api';
import AdminGate from './admin-gate';
import SessionGate from './session-gate';

afterEach(() => vi.unstubAllGlobals());

const routes = [
  { element: <SessionGate />, children: [{ path: '/dashboard', element: stub('learner dashboard') }] },
  { element: <AdminGate />, children: [{ path: '/admin/users', element: stub('admin users') }] },
  { path: '/login', element: stub('login') },
];

/** A /api/auth/me that answers only when the test says so, to see the checking state. */
function pendingMe(reply: { status: number; body: unknown }) {
  let release: () => void = () => {};
  mockFetch({ 'GET /api/auth/me': () => new Promise((resolve) => (release = () => resolve(reply))) });
  return () => release();
}

describe('SessionGate', () => {
  it('shows the checking text, then sends a signed-out visitor to /login', async () => {
    const release = pendingMe({ status: 401, body: { error: 'unauthorized' } });
    renderRoutes(routes, '/dashboard');
    expect(await screen.findByText('Checking your session…')).toBeInTheDocument();
    release();
    expect(await screen.findByText('login page')).toBeInTheDocument();
    // A visitor who never had a session is not told it "ended"; the sign-in leads back here.
    expect(screen.getByTestId('location').textContent).toBe('/login?next=%2Fdashboard');
  });

  it('tells a browser that had a session that it ended, and keeps the page to return to', async () => {
    localStorage.setItem('career.hadSession', '1');
    mockFetch({ 'GET /api/auth/me': { status: 401, body: { error: 'unauthorized' } } });
    renderRoutes(routes, '/dashboard?tab=x');
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(screen.getByTestId('location').textContent).toBe('/login?reason=session_ended&next=%2Fdashboard%3Ftab%3Dx');
    // kept until the login page itself has shown the reason (a second render sends to the same place)
    expect(localStorage.getItem('career.hadSession')).toBe('1');
    localStorage.removeItem('career.hadSession');
  });

  it('keeps the reason when the gate renders more than once before the redirect', async () => {
    localStorage.setItem('career.hadSession', '1');
    mockFetch({ 'GET /api/auth/me': { status: 401, body: { error: 'unauthorized' } } });
    renderRoutes(routes, '/dashboard', { strict: true });
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(screen.getByTestId('location').textContent).toBe('/login?reason=session_ended&next=%2Fdashboard');
    localStorage.removeItem('career.hadSession');
  });

  it('renders the page for a signed-in user', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me() } });
    renderRoutes(routes, '/dashboard');
    expect(await screen.findByText('learner dashboard page')).toBeInTheDocument();
  });

  it('does not treat a network failure as signed out', async () => {
    mockFetch({ 'GET /api/auth/me': 'network' });
    renderRoutes(routes, '/dashboard');
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByText('login page')).toBeNull();
  });
});

describe('AdminGate', () => {
  it('shows the checking text, then sends a signed-out visitor to /login', async () => {
    const release = pendingMe({ status: 401, body: {} });
    renderRoutes(routes, '/admin/users');
    expect(await screen.findByText('Checking admin permissions…')).toBeInTheDocument();
    release();
    expect(await screen.findByText('login page')).toBeInTheDocument();
  });

  it('explains the refusal to a non-admin', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me({ role: 'learner' }) } });
    renderRoutes(routes, '/admin/users');
    expect(await screen.findByRole('heading', { name: 'Admin access required' })).toBeInTheDocument();
    expect(screen.getByText('Your account does not have administrator privileges.')).toBeInTheDocument();
    expect(screen.queryByText('admin users page')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Admin' })).toBeNull();
  });

  it('renders the admin layout with its sidebar for an admin', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me({ role: 'admin' }) } });
    renderRoutes(routes, '/admin/users');
    expect(await screen.findByText('admin users page')).toBeInTheDocument();
    const sidebar = screen.getByRole('navigation', { name: 'Admin' });
    const links = [...sidebar.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Dashboard', '/admin/dashboard'],
      ['Users', '/admin/users'],
      ['Audit log', '/admin/audit'],
      ['Program', '/admin/program'],
    ]);
    expect(screen.getByText('More admin tools coming soon')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Users' }).getAttribute('aria-current')).toBe('page');
  });
});
