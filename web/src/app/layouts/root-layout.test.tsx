import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, renderRoutes, stub } from '../../features/auth/testing/test-utils';
import { mockFetch } from '../../testing/mock-api';
import RootLayout from './root-layout';

afterEach(() => vi.unstubAllGlobals());

const routes = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: stub('home') },
      { path: '/settings', element: stub('settings') },
    ],
  },
];

const navLinks = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .queryAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href')]);

describe('RootLayout header', () => {
  it('offers Log in and Register when signed out', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 401, body: {} } });
    renderRoutes(routes, '/');
    await screen.findByRole('link', { name: 'Log in' });
    expect(screen.getByRole('link', { name: 'Career Program' }).getAttribute('href')).toBe('/');
    expect(navLinks()).toEqual([
      ['Log in', '/login'],
      ['Register', '/register'],
    ]);
    expect(screen.queryByRole('button', { name: 'Log out' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Skip to main content' }).getAttribute('href')).toBe('#content');
  });

  it('shows a learner their email, Dashboard, Settings and Log out, without admin links', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me() } });
    renderRoutes(routes, '/');
    expect(await screen.findByText('Signed in as ada@example.com')).toBeInTheDocument();
    expect(navLinks()).toEqual([
      ['Dashboard', '/dashboard'],
      ['Settings', '/settings'],
    ]);
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('adds Admin, Users and Audit for an admin', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me({ role: 'admin', email: 'root@example.com' }) } });
    renderRoutes(routes, '/');
    expect(await screen.findByText('Signed in as root@example.com')).toBeInTheDocument();
    expect(navLinks()).toEqual([
      ['Dashboard', '/dashboard'],
      ['Admin', '/admin/dashboard'],
      ['Users', '/admin/users'],
      ['Audit', '/admin/audit'],
      ['Settings', '/settings'],
    ]);
  });

  it('logs out, goes home and shows the signed-out links', async () => {
    let signedIn = true;
    const api = mockFetch({
      'GET /api/auth/me': () => (signedIn ? { status: 200, body: me() } : { status: 401, body: {} }),
      'POST /api/auth/logout': () => {
        signedIn = false;
        return { status: 200, body: { ok: true } };
      },
    });
    renderRoutes(routes, '/settings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByText(/Signed in as/)).toBeNull();
    expect(api.callsTo('POST /api/auth/logout')).toHaveLength(1);
  });

  it('puts the signed-in links behind a Menu button (phones), closed again after navigating', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me() } });
    const { router } = renderRoutes(routes, '/');
    const menu = await screen.findByRole('button', { name: 'Menu' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(menu.getAttribute('aria-controls')).toBe(nav.id);
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(nav.className).toContain('site-nav--open');
    await userEvent.click(within(nav).getByRole('link', { name: 'Settings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false'));
  });

  it('closes the open menu on Escape (focus back on Menu) and on a tap outside the header', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me() } });
    renderRoutes(routes, '/');
    const user = userEvent.setup();
    const menu = await screen.findByRole('button', { name: 'Menu' });
    await user.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Escape}');
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menu);

    await user.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    await user.click(document.body);
    expect(menu.getAttribute('aria-expanded')).toBe('false');
  });

  it('has no Menu button for a visitor (two links fit)', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 401, body: {} } });
    renderRoutes(routes, '/');
    await screen.findByRole('link', { name: 'Log in' });
    expect(screen.queryByRole('button', { name: 'Menu' })).toBeNull();
  });
});
