import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, renderRoutes, stub } from '../../features/auth/testing/test-utils';
import { mockFetch } from '../../testing/mock-api';
import AccountDeletedRoute from './account-deleted';
import SettingsRoute from './settings';

const settingsRoutes = () => [
  { path: '/settings', element: <SettingsRoute /> },
  { path: '/account-deleted', element: <AccountDeletedRoute /> },
  { path: '/login', element: stub('/login') },
];

const baseHandlers = {
  'GET /api/auth/me': { body: me() },
  'GET /api/settings/notifications': { body: { reminder_frequency: 'daily' } },
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("Settings → 'Your data'", () => {
  it('downloads the export as a JSON file named by the day, the older audit entries fetched after it joined in', async () => {
    const exported = { format_version: 2, exported_at: '2026-11-23T10:00:00.000Z', profile: { email: 'ada@example.com' } };
    // the first answer has the newest entries, then each continues where the last one stopped
    const pages: Record<string, { audit_entries: { id: string }[]; audit_next_cursor: string | null }> = {
      '': { audit_entries: [{ id: 'a3' }], audit_next_cursor: 'c2' },
      c2: { audit_entries: [{ id: 'a2' }], audit_next_cursor: 'c1' },
      c1: { audit_entries: [{ id: 'a1' }], audit_next_cursor: null },
    };
    const { callsTo } = mockFetch({
      ...baseHandlers,
      'GET /api/account/export': (call) => {
        const cursor = new URL(call.url, 'http://x').searchParams.get('audit_cursor');
        return { body: cursor === null ? { ...exported, ...pages[''] } : pages[cursor] };
      },
    });
    const createObjectURL = vi.fn(() => 'blob:export');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderRoutes(settingsRoutes(), '/settings');

    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText('Your data has been downloaded.')).toBeInTheDocument();
    expect(callsTo('GET /api/account/export').map((call) => call.url)).toEqual([
      '/api/account/export',
      '/api/account/export?audit_cursor=c2',
      '/api/account/export?audit_cursor=c1',
    ]);
    expect(click).toHaveBeenCalledTimes(1);
    const link = click.mock.instances[0] as HTMLAnchorElement;
    expect(link.download).toBe('career-program-data-2026-11-23.json');
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    expect(JSON.parse(await blob.text())).toEqual({ ...exported, audit_entries: [{ id: 'a3' }, { id: 'a2' }, { id: 'a1' }] });
  });

  it('follows the link a large account is answered with: the whole file, named by its server, downloads without another request', async () => {
    const link = 'https://exports.example/exports/abc.json?X-Amz-Signature=s';
    const { callsTo } = mockFetch({
      ...baseHandlers,
      'GET /api/account/export': { body: { download_url: link, expires_at: '2026-11-23T10:05:00.000Z' } },
    });
    const createObjectURL = vi.fn(() => 'blob:export');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderRoutes(settingsRoutes(), '/settings');

    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText('Your data has been downloaded.')).toBeInTheDocument();
    expect(callsTo('GET /api/account/export').map((call) => call.url)).toEqual(['/api/account/export']);
    expect(click).toHaveBeenCalledTimes(1);
    expect((click.mock.instances[0] as HTMLAnchorElement).href).toBe(link);
    expect(createObjectURL).not.toHaveBeenCalled();
  });

  it('says so when the export fails', async () => {
    mockFetch({ ...baseHandlers, 'GET /api/account/export': { status: 500, body: {} } });
    renderRoutes(settingsRoutes(), '/settings');
    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    const alert = await screen.findByText('Unable to prepare your data right now. Please try again.');
    expect(alert.closest('[role="alert"]')).not.toBeNull();
  });

  it('asks for the password in a dialog; a wrong one is explained and nothing else happens', async () => {
    const { callsTo } = mockFetch({ ...baseHandlers, 'POST /api/account/delete': { status: 400, body: { error: 'invalid_password' } } });
    const { router } = renderRoutes(settingsRoutes(), '/settings');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    const confirm = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Delete my account' });
    expect(confirm.disabled).toBe(true);
    await userEvent.type(within(dialog).getByLabelText('Password'), 'wrong-password');
    await userEvent.click(confirm);
    expect((await within(dialog).findByRole('alert', { hidden: true })).textContent).toBe(
      'That password is not correct. Your account has not been deleted.',
    );
    expect(callsTo('POST /api/account/delete')[0].body).toEqual({ password: 'wrong-password' });
    expect(router.state.location.pathname).toBe('/settings');
  });

  it('after deletion shows the public confirmation with the erase date and forgets the signed-in user', async () => {
    mockFetch({
      ...baseHandlers,
      'POST /api/account/delete': {
        body: { ok: true, status: 'deleted', deleted_at: '2026-11-23T10:00:00.000Z', erase_after: '2026-12-23T10:00:00.000Z' },
      },
    });
    const { router, queryClient } = renderRoutes(settingsRoutes(), '/settings');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'my-password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));

    expect(await screen.findByRole('heading', { name: 'Your account has been deleted' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account-deleted');
    expect(screen.getByText(/administrator can restore your account/)).toBeInTheDocument();
    expect(
      screen.getByText(new Date('2026-12-23T12:00:00Z').toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })),
    ).toBeInTheDocument();
    await waitFor(() => expect(queryClient.getQueryData(['auth', 'me'])).toBeNull());
    expect(queryClient.getQueryData(['notifications', 'preferences'])).toBeUndefined();
  });
});
