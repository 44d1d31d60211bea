import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../testing/test-utils';
import { mockFetch } from '@/testing/mock-api';
import { ResetPasswordForm } from './reset-password-form';

afterEach(() => vi.unstubAllGlobals());

const input = (label: string) => screen.getByLabelText<HTMLInputElement>(label);
const updateButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Update password' });

describe('ResetPasswordForm', () => {
  it('shows the checking state, then a disabled form for a rejected link', async () => {
    let release: () => void = () => {};
    const api = mockFetch({
      'GET /api/auth/password-reset/validate': () =>
        new Promise((resolve) => (release = () => resolve({ status: 400, body: { error: 'invalid_or_expired' } }))),
    });
    renderScreen(<ResetPasswordForm />, '/reset-password?token=abc%2B1');
    expect(await screen.findByText('Checking your reset link…')).toBeInTheDocument();
    release();
    expect(await screen.findByText('This password reset link is invalid or has expired.')).toBeInTheDocument();
    expect(screen.getByText(/Please request a new one\./)).toBeInTheDocument();
    expect(input('New password').disabled).toBe(true);
    expect(input('Confirm new password').disabled).toBe(true);
    expect(updateButton().disabled).toBe(true);
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe('/forgot-password');
    expect(api.callsTo('GET /api/auth/password-reset/validate')[0].url).toBe('/api/auth/password-reset/validate?token=abc%2B1');
  });

  it('treats a missing token as an invalid link without asking the server', async () => {
    const api = mockFetch({});
    renderScreen(<ResetPasswordForm />, '/reset-password');
    expect(await screen.findByText('This password reset link is invalid or has expired.')).toBeInTheDocument();
    expect(updateButton().disabled).toBe(true);
    expect(api.callsTo('GET /api/auth/password-reset/validate')).toHaveLength(0);
  });

  it('checks length and match, then updates, keeps the form and offers Continue to login', async () => {
    const api = mockFetch({
      'GET /api/auth/password-reset/validate': { status: 200, body: { ok: true } },
      'POST /api/auth/password-reset/confirm': { status: 200, body: { ok: true } },
    });
    renderScreen(<ResetPasswordForm />, '/reset-password?token=tok');
    const user = userEvent.setup();
    const password = await screen.findByLabelText('New password');
    expect(screen.getByText('Use at least 8 characters.')).toBeInTheDocument();
    await user.type(password, 'short');
    await user.type(input('Confirm new password'), 'shorter');
    await user.click(updateButton());
    expect(screen.getByText('Password must be at least 8 characters long.')).toBeInTheDocument();
    expect(screen.getByText('Passwords must match.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/auth/password-reset/confirm')).toHaveLength(0);

    await user.clear(password);
    await user.type(password, 'a much better one');
    await user.clear(input('Confirm new password'));
    await user.type(input('Confirm new password'), 'a much better one');
    await user.click(updateButton());
    const next = await screen.findByRole('link', { name: 'Continue to login' });
    expect(next.getAttribute('href')).toBe('/login');
    expect(screen.getByRole('status').textContent).toMatch(/password has been updated/);
    expect(input('New password').disabled).toBe(true);
    expect(api.callsTo('POST /api/auth/password-reset/confirm')[0].body).toEqual({
      token: 'tok',
      password: 'a much better one',
      password2: 'a much better one',
    });
  });

  it.each([
    ['weak_password', 'Choose a stronger password with at least 8 characters.'],
    ['password_mismatch', 'Passwords must match.'],
    ['boom', 'Unable to reset your password right now. Please try again.'],
  ])('shows the message for %s', async (code, message) => {
    mockFetch({
      'GET /api/auth/password-reset/validate': { status: 200, body: { ok: true } },
      'POST /api/auth/password-reset/confirm': { status: 400, body: { error: code } },
    });
    renderScreen(<ResetPasswordForm />, '/reset-password?token=tok');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), 'password123');
    await user.type(input('Confirm new password'), 'password123');
    await user.click(updateButton());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(message));
    expect(updateButton().disabled).toBe(false);
  });

  it('disables the form when the update finds the link expired', async () => {
    mockFetch({
      'GET /api/auth/password-reset/validate': { status: 200, body: { ok: true } },
      'POST /api/auth/password-reset/confirm': { status: 400, body: { error: 'invalid_or_expired' } },
    });
    renderScreen(<ResetPasswordForm />, '/reset-password?token=tok');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), 'password123');
    await user.type(input('Confirm new password'), 'password123');
    await user.click(updateButton());
    expect(await screen.findByText('This password reset link is invalid or has expired.')).toBeInTheDocument();
    expect(screen.getByText(/Please request a new one\./)).toBeInTheDocument();
    expect(updateButton().disabled).toBe(true);
  });

  it('replaces its history entry once it has read the token: the address keeps no ?token=', async () => {
    const api = mockFetch({ 'GET /api/auth/password-reset/validate': { status: 200, body: { ok: true } } });
    const { router } = renderScreen(<ResetPasswordForm />, '/reset-password?token=secret-token');
    expect(await screen.findByLabelText('New password')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/reset-password');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(api.callsTo('GET /api/auth/password-reset/validate')[0].url).toBe('/api/auth/password-reset/validate?token=secret-token');
  });
});
