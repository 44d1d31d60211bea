import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, renderScreen } from '../testing/test-utils';
import { mockFetch, type Handler } from '@/testing/mock-api';
import { LoginForm } from './login-form';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

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

  it('sends an administrator who must use a passkey to the passkey sign-in (403 passkey_required), without a code step', async () => {
    mockFetch({ 'POST /api/auth/login': { status: 403, body: { error: 'passkey_required' } } });
    renderScreen(<LoginForm />, '/login');
    await passStepOne();
    expect((await screen.findByRole('alert')).textContent).toBe('Administrators sign in with a passkey. Use "Sign in with a passkey".');
    expect(screen.queryByLabelText('2FA code')).toBeNull();
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
    // No maxlength: the browser would cut a pasted "957 831" before the spaces are removed.
    expect(code.getAttribute('maxlength')).toBeNull();
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    const verify = screen.getByRole<HTMLButtonElement>('button', { name: 'Verify and log in' });
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
    // The sixth digit submits: no click needed.
    await user.type(await screen.findByLabelText('2FA code'), '123456');
    expect((await screen.findByTestId('location')).textContent).toBe('/admin/dashboard');
    expect(api.callsTo('POST /api/auth/verify-2fa')[0].body).toEqual({ email: 'ada@example.com', code: '123456', challenge_id: 'ch-1' });
    // Admins are not probed for enrollment.
    expect(api.callsTo('GET /api/dashboard')).toHaveLength(0);
  });

  it('sends a learner without a dashboard (404) to /enroll', async () => {
    setup({
      'POST /api/auth/verify-2fa': { status: 200, body: { ok: true } },
      'GET /api/dashboard': { status: 404, body: { error: 'not_enrolled' } },
    });
    const user = await passStepOne();
    // The sixth digit submits: no click needed.
    await user.type(await screen.findByLabelText('2FA code'), '123456');
    expect((await screen.findByTestId('location')).textContent).toBe('/enroll');
  });

  it('sends an enrolled learner to /dashboard', async () => {
    setup({
      'POST /api/auth/verify-2fa': { status: 200, body: { ok: true } },
      'GET /api/dashboard': { status: 200, body: { percent_complete: 10 } },
    });
    const user = await passStepOne();
    // The sixth digit submits: no click needed.
    await user.type(await screen.findByLabelText('2FA code'), '123456');
    expect((await screen.findByTestId('location')).textContent).toBe('/dashboard');
  });

  it('sends a learner to /dashboard when the probe fails for another reason', async () => {
    setup({
      'POST /api/auth/verify-2fa': { status: 200, body: { ok: true } },
      'GET /api/dashboard': { status: 500, body: { error: 'internal_error' } },
    });
    const user = await passStepOne();
    // The sixth digit submits: no click needed.
    await user.type(await screen.findByLabelText('2FA code'), '123456');
    expect((await screen.findByTestId('location')).textContent).toBe('/dashboard');
  });

  it('shows the bad-code and network messages and stays on the code step', async () => {
    let attempt = 0;
    setup({ 'POST /api/auth/verify-2fa': () => (++attempt === 1 ? { status: 400, body: { error: 'invalid_code' } } : 'network') });
    const user = await passStepOne();
    const code = await screen.findByLabelText('2FA code');
    await user.type(code, '000000');
    expect((await screen.findByRole('alert')).textContent).toBe('Incorrect or expired code.');
    // Focus goes to the message, not to the body, once the busy button was disabled.
    await waitFor(() => expect(document.activeElement?.contains(screen.getByRole('alert'))).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Verify and log in' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Unable to verify your login code. Please try again.'));
    expect(screen.getByLabelText('2FA code')).toBeInTheDocument();
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

describe('LoginForm: an unverified account', () => {
  it('leads to code entry with Send a new code, then back to log in once verified', async () => {
    const api = mockFetch({
      'POST /api/auth/login': { status: 403, body: { error: 'email_not_verified', needsVerification: true } },
      'POST /api/auth/resend-verification': { status: 202, body: { ok: true } },
      'POST /api/auth/verify-email': { status: 200, body: { ok: true } },
    });
    renderScreen(<LoginForm />, '/login');
    const user = await passStepOne();
    expect((await screen.findByRole('alert')).textContent).toBe('Please verify your email before logging in.');
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(api.callsTo('POST /api/auth/resend-verification')[0].body).toEqual({ email: 'ada@example.com' });
    expect(await screen.findByRole('button', { name: /Send a new code \(\d+ s\)/ })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Verification code'), '123456');
    expect((await screen.findByRole('status')).textContent).toBe('Your email is verified. You can now log in.');
    expect(api.callsTo('POST /api/auth/verify-email')[0].body).toEqual({ email: 'ada@example.com', code: '123456' });
    expect(screen.getByLabelText<HTMLInputElement>('Email').value.trim()).toBe('ada@example.com');
  });

  it('offers Wrong email? Start over', async () => {
    mockFetch({ 'POST /api/auth/login': { status: 403, body: { error: 'email_not_verified', needsVerification: true } } });
    renderScreen(<LoginForm />, '/login');
    const user = await passStepOne();
    await user.click(await screen.findByRole('button', { name: 'Wrong email? Start over' }));
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });
});

describe('LoginForm step 2: ways out', () => {
  function setup(extra: Record<string, Handler>) {
    // the countdown's clock is the test's: Date and the one-second tick, nothing else (requests and
    // user-event keep their real timers)
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    return mockFetch({ 'POST /api/auth/login': challenge, 'GET /api/auth/me': { status: 401, body: {} }, ...extra });
  }

  /** A code was just sent: "Send a new code" counts down the minute, as at registration, then frees up. */
  async function waitOutTheResendMinute() {
    const button = await screen.findByRole<HTMLButtonElement>('button', { name: /^Send a new code \(\d+ s\)$/ });
    expect(button.textContent).toBe('Send a new code (60 s)');
    expect(button.disabled).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(button.textContent).toBe('Send a new code (30 s)');
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(button.textContent).toBe('Send a new code');
    expect(button.disabled).toBe(false);
  }

  it('counts down a minute from the first code before Send a new code is free', async () => {
    setup({});
    renderScreen(<LoginForm />, '/login');
    await passStepOne();
    await waitOutTheResendMinute();
  });

  it('says when the code typed is one a newer email replaced, with the tries left', async () => {
    setup({ 'POST /api/auth/verify-2fa': { status: 400, body: { error: 'code_replaced', attempts_left: 4 } } });
    renderScreen(<LoginForm />, '/login');
    const user = await passStepOne();
    await user.type(await screen.findByLabelText('2FA code'), '123456');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That code was replaced by a newer one. Enter the code from the latest email. 4 attempts left.',
    );
  });

  it('names the address under the field and keeps a pasted "957 831" whole', async () => {
    const api = setup({ 'POST /api/auth/verify-2fa': { status: 400, body: { error: 'invalid_code', attempts_left: 4 } } });
    renderScreen(<LoginForm />, '/login');
    const user = await passStepOne();
    const code = await screen.findByLabelText('2FA code');
    expect(screen.getByText('Sent to ada@example.com')).toBeInTheDocument();
    expect(code.getAttribute('aria-describedby')).toContain(screen.getByText('Sent to ada@example.com').id);
    await user.click(code);
    await user.paste('957 831');
    expect((code as HTMLInputElement).value).toBe('957831');
    // Pasting the sixth digit submitted the code.
    await waitFor(() =>
      expect(api.callsTo('POST /api/auth/verify-2fa')[0]?.body).toEqual({ email: 'ada@example.com', code: '957831', challenge_id: 'ch-1' }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe('Incorrect or expired code. 4 attempts left.');
  });

  it('says a spent code no longer works, and Send a new code brings a fresh challenge', async () => {
    let challengeNo = 1;
    const api = setup({
      'POST /api/auth/verify-2fa': (request) =>
        (request.body as { challenge_id: string }).challenge_id === 'ch-1'
          ? { status: 400, body: { error: 'invalid_code', attempts_left: 0, spent: true } }
          : { status: 400, body: { error: 'invalid_code', attempts_left: 1 } },
      'POST /api/auth/resend-2fa': () => ({ status: 200, body: { two_factor_pending: true, challenge_id: `ch-${++challengeNo}` } }),
    });
    renderScreen(<LoginForm />, '/login');
    const user = await passStepOne();
    await user.type(await screen.findByLabelText('2FA code'), '111111');
    expect((await screen.findByRole('alert')).textContent).toBe('This code no longer works — send a new one.');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Verify and log in' }).disabled).toBe(true);

    await waitOutTheResendMinute();
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect((await screen.findByRole('status')).textContent).toBe('We sent a new code to ada@example.com.');
    expect(api.callsTo('POST /api/auth/resend-2fa')[0].body).toEqual({ email: 'ada@example.com', challenge_id: 'ch-1' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /Send a new code \(\d+ s\)/ }).disabled).toBe(true);

    await user.type(screen.getByLabelText('2FA code'), '222222');
    expect((await screen.findByRole('alert')).textContent).toBe('Incorrect or expired code. 1 attempt left.');
    expect(api.callsTo('POST /api/auth/verify-2fa')[1].body).toEqual({ email: 'ada@example.com', code: '222222', challenge_id: 'ch-2' });
  });

  it('counts down the server wait when resends are throttled', async () => {
    let call = 0;
    setup({
      'POST /api/auth/resend-2fa': () =>
        ++call === 1
          ? { status: 429, body: { error: 'throttled', retry_after: 30 } }
          : { status: 400, body: { error: 'challenge_expired' } },
    });
    renderScreen(<LoginForm />, '/login');
    const user = await passStepOne();
    await screen.findByLabelText('2FA code');
    await waitOutTheResendMinute();
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please wait a moment before trying again.');
    expect(screen.getByRole('button', { name: 'Send a new code (30 s)' })).toBeInTheDocument();
  });

  it('says to start over when the sign-in expired', async () => {
    setup({ 'POST /api/auth/resend-2fa': { status: 400, body: { error: 'challenge_expired' } } });
    renderScreen(<LoginForm />, '/login');
    const user = await passStepOne();
    await screen.findByLabelText('2FA code');
    await waitOutTheResendMinute();
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This sign-in has expired. Start over and enter your password again.');
  });
});

describe('LoginForm restore of a deleted account', () => {
  it('offers the restore on 403 account_deleted, confirms it with the emailed code and signs in', async () => {
    let restored = false;
    const api = mockFetch({
      'POST /api/auth/login': { status: 403, body: { error: 'account_deleted', erase_after: '2026-12-24T10:00:00.000Z' } },
      'POST /api/auth/restore': { status: 200, body: { restore_pending: true, challenge_id: 'rc-1' } },
      'POST /api/auth/restore/verify': () => {
        restored = true;
        return { status: 200, body: { ok: true } };
      },
      'GET /api/auth/me': () => (restored ? { status: 200, body: me() } : { status: 401, body: {} }),
      'GET /api/dashboard': { status: 200, body: { percent_complete: 10 } },
    });
    renderScreen(<LoginForm />, '/login');
    const user = await passStepOne();
    expect((await screen.findByRole('heading', { name: 'Your account was deleted' })).closest('section')?.textContent).toMatch(
      /erased for good on .*2026/,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Restore my account' }));
    expect(api.callsTo('POST /api/auth/restore')[0].body).toEqual({ email: 'ada@example.com', password: 'correct horse' });
    await user.type(await screen.findByLabelText('Restore code'), '123456');
    expect((await screen.findByTestId('location')).textContent).toBe('/dashboard');
    expect(api.callsTo('POST /api/auth/restore/verify')[0].body).toEqual({
      email: 'ada@example.com',
      code: '123456',
      challenge_id: 'rc-1',
    });
  });

  it('sends the person back to sign in when the restore request is refused as a wrong password', async () => {
    mockFetch({
      'POST /api/auth/login': { status: 403, body: { error: 'account_deleted', erase_after: '2026-12-24T10:00:00.000Z' } },
      'POST /api/auth/restore': { status: 401, body: { error: 'invalid_credentials' } },
      'GET /api/auth/me': { status: 401, body: {} },
    });
    renderScreen(<LoginForm />, '/login');
    const user = await passStepOne();
    await user.click(await screen.findByRole('button', { name: 'Restore my account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This account can no longer be restored here. Start over and log in.');
    expect(screen.getByRole('button', { name: 'Start over' })).toBeInTheDocument();
  });
});
