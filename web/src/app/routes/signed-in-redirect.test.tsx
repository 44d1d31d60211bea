import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, renderScreen } from '../../features/auth/testing/test-utils';
import { mockFetch } from '../../testing/mock-api';
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
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });
});

describe('/login after a session ended', () => {
  it('says so, does not bounce on the stale profile, and returns to the page after signing in', async () => {
    let signedIn = false;
    mockFetch({
      'GET /api/auth/me': () => (signedIn ? { status: 200, body: me() } : { status: 401, body: {} }),
      'POST /api/auth/login': { status: 200, body: { two_factor_pending: true, challenge_id: 'ch-1' } },
      'POST /api/auth/verify-2fa': () => {
        signedIn = true;
        return { status: 200, body: { ok: true } };
      },
    });
    localStorage.setItem('career.hadSession', '1');
    const view = renderScreen(<LoginRoute />, '/login?reason=session_ended&next=%2Fdashboard%3Ftab%3Dx');
    expect((await screen.findByRole('status')).textContent).toBe('Your session has ended. Sign in again.');
    // the login page, having said why, forgets that this browser had a session
    await vi.waitFor(() => expect(localStorage.getItem('career.hadSession')).toBeNull());
    const userEvent = (await import('@testing-library/user-event')).default;
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await user.type(await screen.findByLabelText('2FA code'), '123456');
    await vi.waitFor(() => expect(view.router.state.location.pathname + view.router.state.location.search).toBe('/dashboard?tab=x'));
  });

  it('ignores a next that leaves the site', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me() } });
    renderScreen(<LoginRoute />, '/login?next=https%3A%2F%2Fevil.example%2F');
    // Signed in on arrival: the usual dashboard, never the foreign address.
    expect((await screen.findByTestId('location')).textContent).toBe('/dashboard');
  });
});
