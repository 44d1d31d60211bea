import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../testing/test-utils';
import { mockFetch } from '@/testing/mock-api';
import { ChangePasswordForm } from './change-password-form';

afterEach(() => vi.unstubAllGlobals());

const input = (label: string) => screen.getByLabelText<HTMLInputElement>(label);
const submit = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Update password' });

async function fill(user: ReturnType<typeof userEvent.setup>, current: string, next: string, confirm: string) {
  if (current) await user.type(input('Current password'), current);
  if (next) await user.type(input('New password'), next);
  if (confirm) await user.type(input('Confirm new password'), confirm);
}

describe('ChangePasswordForm', () => {
  it('enables submit only when all three are filled, equal, and the new one has 8+ characters', async () => {
    mockFetch({});
    renderScreen(<ChangePasswordForm showHeading />, '/settings');
    const user = userEvent.setup();
    expect(screen.getByRole('heading', { name: 'Change password' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Change password' })).toBeInTheDocument();
    expect(submit().disabled).toBe(true);
    await fill(user, '', 'seven77', 'seven77');
    expect(submit().disabled).toBe(true); // no current password
    await user.type(input('Current password'), 'old password');
    expect(submit().disabled).toBe(true); // new one too short
    expect(screen.getByText('New password must be at least 8 characters.')).toBeInTheDocument();
    await user.type(input('New password'), 'x');
    expect(submit().disabled).toBe(true); // confirmation differs
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    await user.type(input('Confirm new password'), 'x');
    expect(submit().disabled).toBe(false);
  });

  it('asks for the current password when it is left empty', async () => {
    mockFetch({});
    renderScreen(<ChangePasswordForm />, '/settings');
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.getByRole('form', { name: 'Change password' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(input('Current password'));
    await user.tab();
    expect(screen.getByText('Current password is required.')).toBeInTheDocument();
  });

  it('sends the three fields and confirms success, clearing the form', async () => {
    const api = mockFetch({ 'POST /api/settings/password': { status: 200, body: { ok: true } } });
    renderScreen(<ChangePasswordForm />, '/settings');
    const user = userEvent.setup();
    await fill(user, 'old password', 'new password', 'new password');
    await user.click(submit());
    expect((await screen.findByRole('status')).textContent).toBe('Password updated successfully.');
    expect(api.callsTo('POST /api/settings/password')[0].body).toEqual({
      current_password: 'old password',
      new_password: 'new password',
      confirm_new_password: 'new password',
    });
    expect(input('Current password').value).toBe('');
    expect(submit().disabled).toBe(true);
  });

  it.each([
    ['invalid_current_password', 'Current password is incorrect.'],
    ['weak_password', 'New password must be at least 8 characters.'],
    ['password_mismatch', 'Passwords do not match.'],
    ['internal_error', 'Unable to update password.'],
  ])('shows the message for %s', async (code, message) => {
    mockFetch({ 'POST /api/settings/password': { status: 400, body: { error: code } } });
    renderScreen(<ChangePasswordForm />, '/settings');
    const user = userEvent.setup();
    await fill(user, 'old password', 'new password', 'new password');
    await user.click(submit());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(message));
  });
});
