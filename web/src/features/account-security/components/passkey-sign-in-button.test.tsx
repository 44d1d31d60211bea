import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '@/testing/admin-test-utils';
import { mockFetch } from '@/testing/mock-api';
import { PasskeySignInButton } from './passkey-sign-in-button';

const startAuthentication = vi.fn<(...args: unknown[]) => Promise<unknown>>();
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication: (...args: unknown[]) => startAuthentication(...args) }));

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  startAuthentication.mockReset();
});

const me = { id: 'u1', email: 'ada@example.com', first_name: 'Ada', last_name: 'L', name: 'Ada L', role: 'learner', verified: true };

describe('PasskeySignInButton', () => {
  it('signs in with a passkey and hands the fresh profile to the page', async () => {
    const api = mockFetch({
      'POST /api/auth/passkeys/authentication/options': { body: { challenge_id: 'c'.repeat(24), options: { challenge: 'xyz' } } },
      'POST /api/auth/passkeys/authentication/verify': { body: { ok: true, user: me } },
      'GET /api/auth/me': { body: me },
    });
    startAuthentication.mockResolvedValue({ id: 'cred', type: 'public-key' });
    const onSignedIn = vi.fn();
    renderAt('/login', <PasskeySignInButton onSignedIn={onSignedIn} />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(me));
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'xyz' } });
    expect(api.callsTo('POST /api/auth/passkeys/authentication/verify')[0].body).toEqual({
      challenge_id: 'c'.repeat(24),
      response: { id: 'cred', type: 'public-key' },
    });
  });

  it('explains a refusal from the server and a locked account', async () => {
    let answer = { status: 401, body: { error: 'invalid_credentials' } };
    mockFetch({
      'POST /api/auth/passkeys/authentication/options': { body: { challenge_id: 'c'.repeat(24), options: { challenge: 'xyz' } } },
      'POST /api/auth/passkeys/authentication/verify': () => answer,
    });
    startAuthentication.mockResolvedValue({ id: 'cred', type: 'public-key' });
    const onSignedIn = vi.fn();
    renderAt('/login', <PasskeySignInButton onSignedIn={onSignedIn} />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This passkey is not recognized. Sign in with your email and password.');
    answer = { status: 403, body: { error: 'account_locked' } };
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect((await screen.findByText('Your account is locked. Please contact support.')).getAttribute('class')).toContain('alert');
    expect(onSignedIn).not.toHaveBeenCalled();
  });
});
