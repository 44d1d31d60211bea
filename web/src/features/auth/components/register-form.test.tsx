import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../testing/test-utils';
import { mockFetch } from '@/testing/mock-api';
import { RegisterForm } from './register-form';

afterEach(() => {
  vi.unstubAllGlobals();
  // The pending address survives reloads in sessionStorage: each test starts without one.
  sessionStorage.clear();
});

const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });
const input = (label: string) => screen.getByLabelText<HTMLInputElement>(label);

async function fill(user: ReturnType<typeof userEvent.setup>, values: Partial<Record<string, string>> = {}) {
  const v = {
    first: ' Ada ',
    last: 'Lovelace',
    email: 'ada@example.com',
    password: 'analytical engine',
    confirm: 'analytical engine',
    ...values,
  };
  if (v.first) await user.type(input('First name'), v.first);
  if (v.last) await user.type(input('Last name'), v.last);
  if (v.email) await user.type(input('Email'), v.email);
  if (v.password) await user.type(input('Password'), v.password);
  if (v.confirm) await user.type(input('Confirm password'), v.confirm);
}

describe('RegisterForm', () => {
  it('disables Register while the passwords differ and says why', async () => {
    mockFetch({});
    renderScreen(<RegisterForm />, '/register');
    const user = userEvent.setup();
    await fill(user, { confirm: 'analytical engin' });
    expect(button('Register').disabled).toBe(true);
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    await user.type(input('Confirm password'), 'e');
    expect(button('Register').disabled).toBe(false);
    expect(screen.queryByText('Passwords do not match.')).toBeNull();
  });

  it('one Show/Hide toggle reveals both password fields', async () => {
    mockFetch({});
    renderScreen(<RegisterForm />, '/register');
    const user = userEvent.setup();
    const toggle = button('Show');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(input('Password').type).toBe('password');
    await user.click(toggle);
    expect(button('Hide').getAttribute('aria-pressed')).toBe('true');
    expect(input('Password').type).toBe('text');
    expect(input('Confirm password').type).toBe('text');
  });

  it('checks the fields before sending', async () => {
    const api = mockFetch({});
    renderScreen(<RegisterForm />, '/register');
    const user = userEvent.setup();
    await fill(user, { first: '   ', password: 'short', confirm: 'short' });
    await user.click(button('Register'));
    expect(screen.getByText('First name is required.')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters.')).toBeInTheDocument();
    expect(screen.getByText('Please correct the highlighted fields.')).toBeInTheDocument();
    expect(input('First name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(input('First name'));
    expect(api.callsTo('POST /api/auth/register')).toHaveLength(0);
  });

  it('marks each field the server lists as missing', async () => {
    mockFetch({ 'POST /api/auth/register': { status: 400, body: { error: 'missing_fields', fields: ['last_name', 'email'] } } });
    renderScreen(<RegisterForm />, '/register');
    const user = userEvent.setup();
    await fill(user);
    await user.click(button('Register'));
    expect(await screen.findByText('Please correct the highlighted fields.')).toBeInTheDocument();
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    for (const label of ['Last name', 'Email']) {
      const field = input(label);
      expect(field.getAttribute('aria-invalid')).toBe('true');
      const describedBy = field.getAttribute('aria-describedby')!.split(' ');
      expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toContain('This field is required.');
    }
    expect(input('First name').getAttribute('aria-invalid')).toBeNull();
  });

  it.each([
    ['already_registered', 409, 'This email is already registered.'],
    ['throttled', 429, 'Please wait a moment before trying again.'],
    ['weak_password', 400, 'Password must be at least 8 characters.'],
    ['first_name_invalid', 400, 'First name must be 1-100 characters.'],
    ['last_name_required', 400, 'Last name is required.'],
    ['something_else', 400, 'Unable to register. Please try again.'],
  ])('shows the message for %s', async (code, status, message) => {
    mockFetch({ 'POST /api/auth/register': { status, body: { error: code } } });
    renderScreen(<RegisterForm />, '/register');
    const user = userEvent.setup();
    await fill(user);
    await user.click(button('Register'));
    expect((await screen.findAllByText(message)).length).toBeGreaterThan(0);
    expect(screen.queryByLabelText('Verification code')).toBeNull();
  });

  it('moves on to code entry when verification is pending', async () => {
    const api = mockFetch({ 'POST /api/auth/register': { status: 409, body: { error: 'verification_pending' } } });
    renderScreen(<RegisterForm />, '/register');
    const user = userEvent.setup();
    await fill(user);
    await user.click(button('Register'));
    const code = await screen.findByLabelText('Verification code');
    expect(screen.getByText('Please verify your email to continue.')).toBeInTheDocument();
    // the step's effect focuses the field after the route change renders it
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(api.callsTo('POST /api/auth/register')[0].body).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      password: 'analytical engine',
      passwordConfirm: 'analytical engine',
      // the browser's zone: reminders in the learner's morning
      time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });

  it('registers, verifies the code, then offers Go to login', async () => {
    let attempt = 0;
    const api = mockFetch({
      'POST /api/auth/register': { status: 201, body: { ok: true } },
      'POST /api/auth/verify-email': () =>
        ++attempt === 1 ? { status: 400, body: { error: 'invalid_code' } } : { status: 200, body: { ok: true } },
    });
    renderScreen(<RegisterForm />, '/register');
    const user = userEvent.setup();
    await fill(user);
    await user.click(button('Register'));
    const code = await screen.findByLabelText('Verification code');
    expect(button('Verify email').disabled).toBe(true);
    // The sixth digit submits.
    await user.type(code, '654321');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid or expired code.');
    await user.click(button('Verify email'));
    const goToLogin = await screen.findByRole('link', { name: 'Go to login' });
    expect(goToLogin.getAttribute('href')).toBe('/login');
    expect(api.callsTo('POST /api/auth/verify-email')[1].body).toEqual({ email: 'ada@example.com', code: '654321' });
  });

  it('reports a failed verification call', async () => {
    mockFetch({ 'POST /api/auth/register': { status: 201, body: {} }, 'POST /api/auth/verify-email': 'network' });
    renderScreen(<RegisterForm />, '/register');
    const user = userEvent.setup();
    await fill(user);
    await user.click(button('Register'));
    await user.type(await screen.findByLabelText('Verification code'), '111111');
    await user.click(button('Verify email'));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Unable to verify email right now. Please try again.'));
  });
});

describe('RegisterForm verify step (its own address)', () => {
  it('keeps the verify step in the address and the address in the tab across a remount', async () => {
    mockFetch({ 'POST /api/auth/register': { status: 201, body: { ok: true } } });
    const first = renderScreen(<RegisterForm />, '/register');
    const user = userEvent.setup();
    await fill(user);
    await user.click(button('Register'));
    await screen.findByLabelText('Verification code');
    expect(first.router.state.location.search).toBe('?step=verify');
    first.unmount();

    // A reload: same address, fresh component.
    mockFetch({});
    renderScreen(<RegisterForm />, '/register?step=verify');
    expect(await screen.findByText('Enter the 6-digit code we sent to ada@example.com. It expires in 10 minutes.')).toBeInTheDocument();
  });

  it('asks for the address when the tab does not know it, and sends a new code with a countdown', async () => {
    const api = mockFetch({ 'POST /api/auth/resend-verification': { status: 202, body: { ok: true } } });
    renderScreen(<RegisterForm />, '/register?step=verify');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect((await screen.findByRole('status')).textContent).toBe('If that address is waiting for verification, a new code is on its way.');
    expect(api.callsTo('POST /api/auth/resend-verification')[0].body).toEqual({ email: 'grace@example.com' });
    const waiting = screen.getByRole<HTMLButtonElement>('button', { name: /Send a new code \(\d+ s\)/ });
    expect(waiting.disabled).toBe(true);
  });

  it('counts down after registering (a code was just sent) and starts over from Wrong email?', async () => {
    mockFetch({ 'POST /api/auth/register': { status: 201, body: { ok: true } } });
    const view = renderScreen(<RegisterForm />, '/register');
    const user = userEvent.setup();
    await fill(user);
    await user.click(button('Register'));
    await screen.findByLabelText('Verification code');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /Send a new code \(60 s\)/ }).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Wrong email? Start over' }));
    expect(await screen.findByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(view.router.state.location.search).toBe('');
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('');
    expect(sessionStorage.length).toBe(0);
  });

  it('shows the wait message and the server countdown when resends are throttled', async () => {
    sessionStorage.setItem('career.pendingVerificationEmail', 'ada@example.com');
    mockFetch({ 'POST /api/auth/resend-verification': { status: 429, body: { error: 'throttled', retry_after: 42 } } });
    renderScreen(<RegisterForm />, '/register?step=verify');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please wait a moment before trying again.');
    expect(screen.getByRole('button', { name: 'Send a new code (42 s)' })).toBeInTheDocument();
  });
});

describe('RegisterForm passwords', () => {
  it('names a common password as common, not as too short, and clears the banner on change', async () => {
    mockFetch({ 'POST /api/auth/register': { status: 400, body: { error: 'common_password' } } });
    renderScreen(<RegisterForm />, '/register');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('First name'), 'Ada');
    await user.type(screen.getByLabelText('Last name'), 'Lovelace');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'password1');
    await user.type(screen.getByLabelText('Confirm password'), 'password1');
    await user.click(button('Register'));
    const text = 'This password is too common. Choose one that is harder to guess.';
    await waitFor(() => expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain(text));
    expect(screen.queryByText('Password must be at least 8 characters.')).toBeNull();
    await user.type(screen.getByLabelText('Password'), 'x');
    expect(screen.queryAllByRole('alert').map((a) => a.textContent)).not.toContain(text);
  });

  it('shows a live strength hint, loaded only once a password is typed', async () => {
    mockFetch({});
    renderScreen(<RegisterForm />, '/register');
    expect(screen.queryByText(/Password strength/)).toBeNull();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password'), 'password1');
    expect(
      await screen.findByText(/Password strength: Very weak\. This password is too common/, {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'copper meadow violin harbour');
    expect(await screen.findByText(/Password strength: Strong\./)).toBeInTheDocument();
  });
});
