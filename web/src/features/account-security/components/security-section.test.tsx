import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '@/testing/admin-test-utils';
import { mockFetch } from '@/testing/mock-api';
import { SecuritySection } from './security-section';

const startRegistration = vi.fn<(...args: unknown[]) => Promise<unknown>>();
const startAuthentication = vi.fn<(...args: unknown[]) => Promise<unknown>>();
vi.mock('@simplewebauthn/browser', () => ({
  startRegistration: (...args: unknown[]) => startRegistration(...args),
  startAuthentication: (...args: unknown[]) => startAuthentication(...args),
}));

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  startRegistration.mockReset();
  startAuthentication.mockReset();
});

const session = (id: string, current: boolean, device: string) => ({
  id,
  current,
  created_at: '2026-01-02T08:00:00Z',
  last_seen_at: '2026-01-02T09:00:00Z',
  ip: '203.0.113.7',
  user_agent: 'UA',
  device,
});
const passkey = { id: 'p'.repeat(43), name: 'Work laptop', created_at: '2026-01-01T10:00:00Z', last_used_at: null, backed_up: false };

describe('Settings → Security: sessions', () => {
  it('shows "This device" for the current session and a Sign out button for the others', async () => {
    let sessions = [session('s1', true, 'Chrome on Windows'), session('s2', false, 'Firefox on Linux')];
    const api = mockFetch({
      'GET /api/auth/sessions': () => ({ body: { items: sessions } }),
      'DELETE /api/auth/sessions/s2': () => {
        sessions = sessions.slice(0, 1);
        return { body: { ok: true } };
      },
      'GET /api/auth/passkeys': { body: { items: [] } },
    });
    renderAt('/settings', <SecuritySection />);
    const list = await screen.findByRole('list', { name: 'Signed-in sessions' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0].textContent).toContain('Chrome on Windows');
    expect(within(rows[0]).getByText('This device')).toBeInTheDocument();
    expect(within(rows[0]).queryByRole('button')).toBeNull();
    expect(rows[1].textContent).toContain('IP 203.0.113.7');
    await userEvent.click(within(rows[1]).getByRole('button', { name: /^Sign out Firefox on Linux/ }));
    // "Confirm it's you" first: nothing ends until the password is given
    const step = await screen.findByRole('form', { name: "Confirm it's you" });
    expect(step.textContent).toContain('Enter your password to sign out Firefox on Linux.');
    expect(api.callsTo('DELETE /api/auth/sessions/s2')).toHaveLength(0);
    await userEvent.type(within(step).getByLabelText('Password'), 'my password');
    await userEvent.click(within(step).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Signed out Firefox on Linux.')).toBeInTheDocument();
    expect(api.callsTo('DELETE /api/auth/sessions/s2').map((call) => call.body)).toEqual([{ current_password: 'my password' }]);
    expect(screen.queryByRole('form', { name: "Confirm it's you" })).toBeNull();
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Signed-in sessions' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByText('You are not signed in anywhere else.')).toBeInTheDocument();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Sign out everywhere else' }).disabled).toBe(true);
  });

  it('signs out everywhere else and reports failures', async () => {
    const api = mockFetch({
      'GET /api/auth/sessions': {
        body: {
          items: [session('s1', true, 'Chrome on Windows'), session('s2', false, 'Safari on iOS'), session('s3', false, 'Edge on Windows')],
        },
      },
      'POST /api/auth/sessions/revoke-others': (call) =>
        (call.body as { current_password?: string }).current_password === 'my password'
          ? { body: { ok: true, ended: 2 } }
          : { status: 400, body: { error: 'invalid_current_password' } },
      'DELETE /api/auth/sessions/s2': { status: 404, body: { error: 'session_not_found' } },
      'GET /api/auth/passkeys': { body: { items: [] } },
    });
    renderAt('/settings', <SecuritySection />);
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
    const step = await screen.findByRole('form', { name: "Confirm it's you" });
    expect(step.textContent).toContain('Enter your password to sign out everywhere else.');
    // a wrong password is said in the form, which stays for another try
    await userEvent.type(within(step).getByLabelText('Password'), 'not it');
    await userEvent.click(within(step).getByRole('button', { name: 'Sign out everywhere else' }));
    expect((await within(step).findByRole('alert')).textContent).toBe('The current password is not correct.');
    await userEvent.clear(within(step).getByLabelText('Password'));
    await userEvent.type(within(step).getByLabelText('Password'), 'my password');
    await userEvent.click(within(step).getByRole('button', { name: 'Sign out everywhere else' }));
    expect(await screen.findByText('Signed out 2 other sessions.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/auth/sessions/revoke-others')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: /^Sign out Safari on iOS/ }));
    await userEvent.type(await screen.findByLabelText('Password'), 'my password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This session has already ended.');
  });

  it('confirms with a passkey when the account has one: one press ends the sessions', async () => {
    const api = mockFetch({
      'GET /api/auth/sessions': { body: { items: [session('s1', true, 'Chrome on Windows'), session('s2', false, 'Safari on iOS')] } },
      'GET /api/auth/passkeys': { body: { items: [passkey] } },
      'POST /api/auth/passkeys/confirmation/options': { body: { challenge_id: 'k'.repeat(24), options: { challenge: 'xyz' } } },
      'POST /api/auth/sessions/revoke-others': { body: { ok: true, ended: 1 } },
    });
    startAuthentication.mockResolvedValue({ id: 'old', type: 'public-key' });
    renderAt('/settings', <SecuritySection />);
    await screen.findByRole('list', { name: 'Your passkeys' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    expect((await screen.findByRole('form', { name: "Confirm it's you" })).textContent).toContain(
      'Enter your password, or use one of your passkeys, to sign out everywhere else.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Use a passkey instead' }));
    expect(await screen.findByText('Signed out 1 other session.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/auth/sessions/revoke-others')[0].body).toEqual({
      passkey: { challenge_id: 'k'.repeat(24), response: { id: 'old', type: 'public-key' } },
    });
  });

  it('says when the sessions cannot be loaded', async () => {
    mockFetch({
      'GET /api/auth/sessions': { status: 500, body: { error: 'internal_error' } },
      'GET /api/auth/passkeys': { body: { items: [] } },
    });
    renderAt('/settings', <SecuritySection />);
    expect(await screen.findByText('Unable to load your sessions.')).toBeInTheDocument();
  });
});

describe('Settings → Security: passkeys', () => {
  it('lists passkeys with created and last used, renames and removes after confirmation', async () => {
    let items = [passkey];
    const api = mockFetch({
      'GET /api/auth/sessions': { body: { items: [session('s1', true, 'Chrome on Windows')] } },
      'GET /api/auth/passkeys': () => ({ body: { items } }),
      [`PATCH /api/auth/passkeys/${passkey.id}`]: (call) => {
        items = [{ ...passkey, name: (call.body as { name: string }).name }];
        return { body: items[0] };
      },
      [`DELETE /api/auth/passkeys/${passkey.id}`]: () => {
        items = [];
        return { body: { ok: true } };
      },
    });
    renderAt('/settings', <SecuritySection />);
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    expect(list.textContent).toContain('Work laptop');
    expect(list.textContent).toContain('Last used never');

    await userEvent.click(screen.getByRole('button', { name: 'Rename Work laptop' }));
    const field = screen.getByLabelText('New name');
    await userEvent.clear(field);
    await userEvent.type(field, 'Desk key');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Passkey renamed to "Desk key".')).toBeInTheDocument();
    expect(api.callsTo(`PATCH /api/auth/passkeys/${passkey.id}`)[0].body).toEqual({ name: 'Desk key' });

    await userEvent.click(await screen.findByRole('button', { name: 'Remove Desk key' }));
    const removal = screen.getByRole('group', { name: 'Remove passkey Desk key?' });
    expect(removal.textContent).toContain('Enter your password, or use one of your passkeys, to remove this passkey.');
    expect(api.callsTo(`DELETE /api/auth/passkeys/${passkey.id}`)).toHaveLength(0);
    await userEvent.type(within(removal).getByLabelText('Password'), 'my password');
    await userEvent.click(within(removal).getByRole('button', { name: 'Yes, remove' }));
    expect(await screen.findByText('Passkey "Desk key" removed.')).toBeInTheDocument();
    expect(await screen.findByText('You have no passkeys yet.')).toBeInTheDocument();
    expect(api.callsTo(`DELETE /api/auth/passkeys/${passkey.id}`)[0].body).toEqual({ current_password: 'my password' });
  });

  it('adds a passkey after "Confirm it\'s you" with the password; the name is optional', async () => {
    const api = mockFetch({
      'GET /api/auth/sessions': { body: { items: [session('s1', true, 'Chrome on Windows')] } },
      'GET /api/auth/passkeys': { body: { items: [] } },
      'POST /api/auth/passkeys/registration/options': (call) =>
        (call.body as { current_password?: string }).current_password === 'my password'
          ? { body: { challenge_id: 'c'.repeat(24), options: { challenge: 'abc' } } }
          : { status: 400, body: { error: 'invalid_current_password' } },
      'POST /api/auth/passkeys/registration/verify': { status: 201, body: { ...passkey, name: 'Chrome on Linux' } },
    });
    startRegistration.mockResolvedValue({ id: 'cred', type: 'public-key' });
    renderAt('/settings', <SecuritySection />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    const step = await screen.findByRole('form', { name: "Confirm it's you" });
    // no passkey yet: the password is the only way, and nothing looks like an error
    expect(step.textContent).toContain('Enter your password to add a passkey.');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Use a passkey instead' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Password')));
    await userEvent.type(screen.getByLabelText('Password'), 'not it');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The current password is not correct.');
    expect(startRegistration).not.toHaveBeenCalled();
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'my password');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Passkey "Chrome on Linux" added.')).toBeInTheDocument();
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: { challenge: 'abc' } });
    // no name typed: none sent, the server names it
    expect(api.callsTo('POST /api/auth/passkeys/registration/verify')[0].body).toEqual({
      challenge_id: 'c'.repeat(24),
      response: { id: 'cred', type: 'public-key' },
    });
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('confirms with an existing passkey, then creates the new one on a second press', async () => {
    const api = mockFetch({
      'GET /api/auth/sessions': { body: { items: [] } },
      'GET /api/auth/passkeys': { body: { items: [passkey] } },
      'POST /api/auth/passkeys/confirmation/options': { body: { challenge_id: 'k'.repeat(24), options: { challenge: 'xyz' } } },
      'POST /api/auth/passkeys/registration/options': { body: { challenge_id: 'c'.repeat(24), options: { challenge: 'abc' } } },
      'POST /api/auth/passkeys/registration/verify': (call) => ({
        status: 201,
        body: { ...passkey, name: (call.body as { name: string }).name },
      }),
    });
    startAuthentication.mockResolvedValue({ id: 'old', type: 'public-key' });
    startRegistration.mockResolvedValue({ id: 'cred', type: 'public-key' });
    renderAt('/settings', <SecuritySection />);
    await userEvent.type(await screen.findByLabelText(/Passkey name/), 'Phone');
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect((await screen.findByRole('form', { name: "Confirm it's you" })).textContent).toContain(
      'Enter your password, or use one of your passkeys, to add a passkey.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Use a passkey instead' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Create the passkey' }));
    expect(await screen.findByText('Passkey "Phone" added.')).toBeInTheDocument();
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'xyz' } });
    expect(api.callsTo('POST /api/auth/passkeys/registration/options')[0].body).toEqual({
      passkey: { challenge_id: 'k'.repeat(24), response: { id: 'old', type: 'public-key' } },
    });
    expect(api.callsTo('POST /api/auth/passkeys/registration/verify')[0].body).toMatchObject({ name: 'Phone' });
  });

  it('explains a cancelled passkey dialog', async () => {
    mockFetch({
      'GET /api/auth/sessions': { body: { items: [] } },
      'GET /api/auth/passkeys': { body: { items: [] } },
      'POST /api/auth/passkeys/registration/options': { body: { challenge_id: 'c'.repeat(24), options: { challenge: 'abc' } } },
    });
    startRegistration.mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }),
    );
    renderAt('/settings', <SecuritySection />);
    await userEvent.type(await screen.findByLabelText(/Passkey name/), 'Phone');
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await userEvent.type(await screen.findByLabelText('Password'), 'my password');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The passkey request was cancelled or timed out.');
  });
});
