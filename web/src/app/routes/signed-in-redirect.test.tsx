import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, mockFetch, renderScreen } from '../../features/auth/testing/test-utils';
import LoginRoute from './login';
import RegisterRoute from './register';

afterEach(() => vi.unstubAllGlobals());

describe('/login and /register for someone already signed in', () => {
  it('sends a signed-in learner from /login and /register to the dashboard', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me() } });
    renderScreen(<LoginRoute />, '/login');
    expect((await screen.findByTestId('location')).textContent).toBe('/dashboard');
  });

  it('sends a signed-in learner from /register to the dashboard, and an admin to the admin dashboard', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me() } });
    const first = renderScreen(<RegisterRoute />, '/register');
    expect((await screen.findByTestId('location')).textContent).toBe('/dashboard');
    first.unmount();
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me({ role: 'admin' }) } });
    renderScreen(<LoginRoute />, '/login');
    expect((await screen.findByTestId('location')).textContent).toBe('/admin/dashboard');
  });

  it('shows the forms to a visitor', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 401, body: {} } });
    renderScreen(<LoginRoute />, '/login');
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeTruthy();
  });
});
