import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../testing/test-utils';
import { mockFetch } from '@/testing/mock-api';
import { ForgotPasswordForm } from './forgot-password-form';

afterEach(() => vi.unstubAllGlobals());

describe('ForgotPasswordForm', () => {
  it('sends the trimmed email, shows the neutral message and the spam hint, then offers Send again', async () => {
    let release: () => void = () => {};
    const api = mockFetch({
      'POST /api/auth/password-reset/request': () =>
        new Promise((resolve) => (release = () => resolve({ status: 200, body: { ok: true } }))),
    });
    renderScreen(<ForgotPasswordForm />, '/forgot-password');
    const user = userEvent.setup();
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
    await user.type(screen.getByLabelText('Email'), '  ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    const busy = await screen.findByRole<HTMLButtonElement>('button', { name: 'Sending…' });
    expect(busy.disabled).toBe(true);
    release();
    expect(await screen.findByText("If an account exists, we've sent a reset link.")).toBeInTheDocument();
    expect(screen.getByText(/spam/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send again' })).toBeInTheDocument();
    expect(api.callsTo('POST /api/auth/password-reset/request')[0].body).toEqual({ email: 'ada@example.com' });
  });

  it('needs a non-empty email', async () => {
    const api = mockFetch({});
    renderScreen(<ForgotPasswordForm />, '/forgot-password');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), '   ');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Email is required.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/auth/password-reset/request')).toHaveLength(0);
  });

  it('reports a failed request', async () => {
    mockFetch({ 'POST /api/auth/password-reset/request': 'network' });
    renderScreen(<ForgotPasswordForm />, '/forgot-password');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Unable to request a password reset right now. Please try again.');
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeInTheDocument();
  });
});
