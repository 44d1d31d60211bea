import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, mockFetch, renderScreen, type Handler } from '../testing/test-utils';
import { LoginForm } from './login-form';

afterEach(() => vi.unstubAllGlobals());

const challenge = { status: 200, body: { two_factor_pending: true, challenge_id: 'ch-1' } };

async function passStepOne(user = userEvent.setup()) {
  await user.type(screen.getByLabelText('Email'), ' ada@example.com ');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
  return user;
}

describe('LoginForm step 1', () => {
  it('links to the forgot-password and register pages', () => {
    mockFetch({});
    renderScreen(<LoginForm />, '/login');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
    expect(screen.getByRole('link', { name: 'Register here' }).getAttribute('href')).toBe('/register');
  });

  it('says to verify the email on 403 with needsVerification', async () => {
    mockFetch({ 'POST /api/auth/login': { status: 403, body: { error: 'email_not_verified', needsVerification: true } } });
    renderScreen(<LoginForm />, '/login');
    await passStepOne();
    expect((await screen.findByRole('alert')).textContent).toBe('Please verify your email before logging in.');
    expect(screen.queryByLabelText('2FA code')).toBeNull();
  });

  it('says the credentials are wrong on 401', async () => {
    const api = mockFetch({ 'POST /api/auth/login': { status: 401, body: { error: 'invalid_credentials' } } });
    renderScreen(<LoginForm />, '/login');
    await passStepOne();
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password.');
    // The email is sent trimmed.
    expect(api.callsTo('POST /api/auth/login')[0].body).toEqual({ email: 'ada@example.com', password: 'correct horse' });
  });

  it('maps throttling to the wait message', async () => {
    mockFetch({ 'POST /api/auth/login': { status: 429, body: { error: 'throttled' } } });
    renderScreen(<LoginForm />, '/login');
    await passStepOne();
    expect((await screen.findByRole('alert')).textContent).toBe('Please wait a moment before trying again.');
  });

  it('reports a network failure', async () => {
    mockFetch({ 'POST /api/auth/login': 'network' });
    renderScreen(<LoginForm />, '/login');
    await passStepOne();
    expect((await screen.findByRole('alert')).textContent).toBe('Unable to log in right now. Please try again.');
  });

  it('refuses to continue without a challenge', async () => {
    mockFetch({ 'POST /api/auth/login': { status: 200, body: { two_factor_pending: true } } });
    renderScreen(<LoginForm />, '/login');
    await passStepOne();
    expect((await screen.findByRole('alert')).textContent).toBe('Missing login challenge. Please restart the login process.');
    expect(screen.queryByLabelText('2FA code')).toBeNull();
  });
});

describe('LoginForm step 2', () => {
  function setup(extra: Record<string, Handler>) {
    let signedIn = false;
    const api = mockFetch({
      'POST /api/auth/login': challenge,
      'GET /api/auth/me': () => (signedIn ? { status: 200, body: me() } : { status: 401, body: { error: 'unauthorized' } }),
      ...extra,
      'POST /api/auth/verify-2fa': async (request) => {
        const reply = extra['POST /api/auth/verify-2fa'];
        const resolved = typeof reply === 'function' ? await reply(request) : reply;
        if (resolved && resolved !== 'network' && (resolved.status ?? 200) < 300) signedIn = true;
        return resolved ?? { status: 500 };
      },
    });
    renderScreen(<LoginForm />, '/login');
    return api;
  }

  it('moves focus to a numeric code field and keeps the Verify button disabled while it is empty', async () => {
    setup({ 'POST /api/auth/verify-2fa': { status: 200, body: { ok: true } } });
    const user = await passStepOne();
    const code = await screen.findByLabelText('2FA code');
    expect(document.activeElement).toBe(code);
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('maxlength')).toBe('6');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    const verify = screen.getByRole('button', { name: 'Verify and log in' }) as HTMLButtonElement;
    expect(verify.disabled).toBe(true);
    await user.type(code, '12a3');
    expect((code as HTMLInputElement).value).toBe('123');
    expect(verify.disabled).toBe(false);
  });

  it('sends email, code and challenge, then sends an admin to /admin/dashboard', async () => {
    let signedIn = false;
    const api = mockFetch({
      'POST /api/auth/login': challenge,
      'POST /api/auth/verify-2fa': () => {
        signedIn = true;
        return { status: 200, body: { ok: true } };
      },
      'GET /api/auth/me': () => (signedIn ? { status: 200, body: me({ role: 'admin' }) } : { status: 401, body: {} }),
    });
    renderScreen(<LoginForm />, '/login');
    const user = await passStepOne();
    await user.type(await screen.findByLabelText('2FA code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify and log in' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/admin/dashboard');
    expect(api.callsTo('POST /api/auth/verify-2fa')[0].body).toEqual({ email: 'ada@example.com', code: '123456', challenge_id: 'ch-1' });
    // Admins are not probed for enrollment.
    expect(api.callsTo('GET /api/dashboard')).toHaveLength(0);
  });

  it('sends a learner without a dashboard (404) to /enroll', async () => {
    setup({ 'POST /api/auth/verify-2fa': { status: 200, body: { ok: true } }, 'GET /api/dashboard': { status: 404, body: { error: 'not_enrolled' } } });
    const user = await passStepOne();
    await user.type(await screen.findByLabelText('2FA code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify and log in' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/enroll');
  });

  it('sends an enrolled learner to /dashboard', async () => {
    setup({ 'POST /api/auth/verify-2fa': { status: 200, body: { ok: true } }, 'GET /api/dashboard': { status: 200, body: { percent_complete: 10 } } });
    const user = await passStepOne();
    await user.type(await screen.findByLabelText('2FA code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify and log in' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/dashboard');
  });

  it('sends a learner to /dashboard when the probe fails for another reason', async () => {
    setup({ 'POST /api/auth/verify-2fa': { status: 200, body: { ok: true } }, 'GET /api/dashboard': { status: 500, body: { error: 'internal_error' } } });
    const user = await passStepOne();
    await user.type(await screen.findByLabelText('2FA code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify and log in' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/dashboard');
  });

  it('shows the bad-code and network messages and stays on the code step', async () => {
    let attempt = 0;
    setup({ 'POST /api/auth/verify-2fa': () => (++attempt === 1 ? { status: 400, body: { error: 'invalid_code' } } : 'network') });
    const user = await passStepOne();
    const code = await screen.findByLabelText('2FA code');
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify and log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Incorrect or expired code.');
    await user.click(screen.getByRole('button', { name: 'Verify and log in' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Unable to verify your login code. Please try again.'));
    expect(screen.getByLabelText('2FA code')).toBeTruthy();
  });

  it('shows the mail viewer note in local mode', async () => {
    setup({ 'GET /__local/config': { status: 200, body: { mail_viewer_url: 'http://localhost:8005' } } });
    await passStepOne();
    await screen.findByLabelText('2FA code');
    const link = await screen.findByRole('link', { name: 'local mail viewer' });
    expect(link.getAttribute('href')).toBe('http://localhost:8005');
  });

  it('shows no mail viewer note outside local mode (HTML answer)', async () => {
    setup({});
    await passStepOne();
    await screen.findByLabelText('2FA code');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('link', { name: 'local mail viewer' })).toBeNull();
  });
});
