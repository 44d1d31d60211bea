import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '@/testing/admin-test-utils';
import { mockFetch, type Handler } from '@/testing/mock-api';
import { formatDate } from '@/utils/format';
import { UserDrawer } from './user-drawer';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const detail = (overrides: Record<string, unknown> = {}) => ({
  id: 'u1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  status: 'active',
  is_locked: false,
  role: 'learner',
  verified: true,
  created_at: '2025-11-01T09:00:00Z',
  last_login_at: null,
  recent_activity: { last_login_at: null, last_progress_at: null, last_enrollment_at: null },
  retention_days: 30,
  deleted_at: null,
  deleted_reason: null,
  hard_delete_ready: false,
  hard_delete_available_at: null,
  enrollments: [],
  ...overrides,
});

const enrollment = (modules: unknown[]) => ({ id: 'e1', program_id: 'p1', program_title: null, status: 'active', modules });

function open(user: Record<string, unknown>, handlers: Record<string, Handler> = {}) {
  const api = mockFetch({ 'GET /api/admin/users/u1': { body: user }, ...handlers });
  const onClose = vi.fn();
  const view = renderAt('/admin/users', <UserDrawer userId="u1" onClose={onClose} />);
  return { api, onClose, view, user: userEvent.setup() };
}

const notice = async (text: string) => expect((await screen.findByText(text)).closest('.alert')).toBeTruthy();

/** The drawer's in-app confirmation: checks it states a consequence, then answers it. */
async function answerConfirm(user: ReturnType<typeof userEvent.setup>, button: string, consequence: RegExp) {
  const dialog = await screen.findByRole('alertdialog');
  expect(dialog.textContent).toMatch(consequence);
  // Cancel has focus: Enter never destroys by accident.
  expect(document.activeElement?.textContent).toBe('Cancel');
  await user.click(within(dialog).getByRole('button', { name: button }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
}

describe('UserDrawer shell', () => {
  it('is a labelled modal with banners for locked, soft-deleted and unverified accounts', async () => {
    open(detail({ status: 'deleted', is_locked: true, verified: false }));
    const dialog = screen.getByRole('dialog', { name: 'User u1' });
    // a native <dialog> opened with showModal() (the browser makes the page behind it inert)
    expect(dialog.tagName).toBe('DIALOG');
    expect((dialog as HTMLDialogElement).open).toBe(true);
    expect(await screen.findByText('Account is locked.')).toBeInTheDocument();
    expect(screen.getByText('Account is soft-deleted. Restore to re-enable access.')).toBeInTheDocument();
    expect(screen.getByText('Email address is unverified.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Restore' })).toBeInTheDocument();
  });

  it('shows no banners for an active verified account', async () => {
    open(detail());
    await screen.findByText('Account facts');
    expect(screen.queryByText('Account is locked.')).toBeNull();
    expect(screen.queryByText(/soft-deleted/)).toBeNull();
    expect(screen.queryByText('Email address is unverified.')).toBeNull();
  });

  it('shows "Email bouncing" for a hard-bounced address and "Marked as spam" for a complaint', async () => {
    const first = open(detail({ email_suppressed: 'bounce' }));
    expect(await screen.findByText('Email bouncing')).toBeInTheDocument();
    expect(screen.queryByText('Marked as spam')).toBeNull();
    first.view.unmount();
    open(detail({ email_suppressed: 'complaint' }));
    expect(await screen.findByText('Marked as spam')).toBeInTheDocument();
    expect(screen.queryByText('Email bouncing')).toBeNull();
  });

  it('shows no mail banner when SES reported nothing', async () => {
    open(detail({ email_suppressed: null }));
    await screen.findByText('Account facts');
    expect(screen.queryByText('Email bouncing')).toBeNull();
    expect(screen.queryByText('Marked as spam')).toBeNull();
  });

  it('closes on Escape, on the overlay and on the close button', async () => {
    const { onClose, user } = open(detail());
    await screen.findByText('Account facts');
    await user.keyboard('{Escape}');
    // a click on the <dialog> itself, outside its panel: the backdrop
    await user.click(screen.getByRole('dialog'));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(3);
  });

  it('moves between tabs with the arrow keys', async () => {
    const { user } = open(detail());
    await screen.findByText('Account facts');
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Profile', 'Modules', 'Security', 'Audit']);
    tabs[0].focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Modules' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Modules' }));
    expect(screen.getByText('No enrollments yet.')).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Audit' }).getAttribute('aria-selected')).toBe('true');
  });

  it("reports a failed load with the server's error field", async () => {
    open(detail(), { 'GET /api/admin/users/u1': { status: 404, body: { error: 'not_found' } } });
    expect((await screen.findByRole('alert')).textContent).toBe('not_found');
  });
});

describe('UserDrawer for an account being erased', () => {
  const modules = [
    { module_id: 'm1', title: 'Goals', week_no: 1, module_number: 1, status: 'open', started_at: null, completed_at: null },
    { module_id: 'm2', title: 'Resume', week_no: 1, module_number: 2, status: 'locked', started_at: null, completed_at: null },
  ];
  const erasing = detail({
    status: 'purging',
    is_locked: true,
    passkey_count: 1,
    certificate: { verification_code: 'CERT-1', issued_at: '2025-12-01T10:00:00Z', revoked_at: null },
    enrollments: [enrollment(modules)],
  });
  const handlers = {
    'GET /api/admin/users/u1/passkeys': {
      body: { items: [{ id: 'k1', name: 'Phone', created_at: '2026-01-02T10:00:00Z', last_used_at: null, backed_up: false }] },
    },
    'GET /api/admin/users/u1/hard-delete/status': {
      body: { status: 'purging', step: 'audit', counts: {}, started_at: '2026-01-01T00:00:00Z', finished_at: null },
    },
  };
  const enabledButtons = () =>
    within(screen.getByRole('tabpanel'))
      .queryAllByRole<HTMLButtonElement>('button')
      .filter((button) => !button.disabled)
      .map((button) => button.textContent);

  it('says the account is being erased and offers no action on any tab, only the purge progress', async () => {
    const { api, user } = open(erasing, handlers);
    expect(await screen.findByText('This account is being erased.')).toBeInTheDocument();
    // the SPEC's banner for a locked account stays
    expect(screen.getByText('Account is locked.')).toBeInTheDocument();

    expect(await screen.findByRole('button', { name: 'Revoke certificate' })).toBeDisabled();
    expect(enabledButtons()).toEqual([]);
    for (const field of ['First name', 'Last name', 'Email']) expect(screen.getByLabelText(field)).toBeDisabled();

    await user.click(screen.getByRole('tab', { name: 'Modules' }));
    expect(await screen.findByRole('button', { name: 'Unlock next module' })).toBeDisabled();
    expect(enabledButtons()).toEqual([]);

    await user.click(screen.getByRole('tab', { name: 'Security' }));
    expect(await screen.findByRole('button', { name: 'Remove passkey Phone' })).toBeDisabled();
    expect(screen.getByLabelText('Soft-delete reason (optional)')).toBeDisabled();
    // showing the hard-delete panel is no change: it follows the purge
    expect(enabledButtons()).toEqual(['Advanced: Hard delete']);
    await user.click(screen.getByRole('button', { name: 'Advanced: Hard delete' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/^Purge in progress…/);

    const writes = api.calls.filter((call) => call.method !== 'GET');
    expect(writes).toEqual([]);
  });
});

describe('UserDrawer profile', () => {
  it('shows the facts and saves the trimmed profile', async () => {
    const { api, user } = open(detail({ verified: null }), { 'PATCH /api/admin/users/u1': { body: {} } });
    await screen.findByText('Account facts');
    const facts = screen.getByText('Account facts').parentElement as HTMLElement;
    expect(within(facts).getByText('Verified').nextSibling?.textContent).toBe('—');
    const first = screen.getByLabelText('First name');
    await user.clear(first);
    await user.type(first, ' Augusta ');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await notice('Profile updated.');
    expect(api.callsTo('PATCH /api/admin/users/u1')[0].body).toEqual({
      first_name: 'Augusta',
      last_name: 'Lovelace',
      email: 'ada@example.com',
    });
    expect(screen.getByLabelText<HTMLInputElement>('Email').type).toBe('email');
  });

  it("refuses a profile the API would refuse, with the API's code, without a call", async () => {
    const { api, user } = open(detail(), { 'PATCH /api/admin/users/u1': { body: {} } });
    const email = await screen.findByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'ada@example');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe('invalid_email');
    expect(api.callsTo('PATCH /api/admin/users/u1')).toHaveLength(0);
  });

  it('falls back to HTTP {status} when saving fails without an error field', async () => {
    const { user } = open(detail(), { 'PATCH /api/admin/users/u1': { status: 500 } });
    await user.click(await screen.findByRole('button', { name: 'Save changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe('HTTP 500');
  });

  it.each([
    ['sent', 'Reset email sent.', 'alert--success'],
    ['sandbox', 'Reset email sent to AHA sandbox.', 'alert--info'],
    ['allowlist_block', 'Email suppressed by allowlist.', 'alert--info'],
    ['bounced', 'Failed to send reset email.', 'alert--error'],
  ])('reports reset delivery %s', async (delivery, text, tone) => {
    const { user } = open(detail(), { 'POST /api/admin/users/u1/reset-password': { body: { delivery } } });
    await user.click(await screen.findByRole('button', { name: 'Send password reset' }));
    expect((await screen.findByText(text)).className).toContain(tone);
  });
});

describe('UserDrawer security', () => {
  it('locks the account, says so and reloads the user', async () => {
    let locked = false;
    const { api, user } = open(detail(), {
      'GET /api/admin/users/u1': () => ({ body: detail({ status: locked ? 'locked' : 'active', is_locked: locked }) }),
      'POST /api/admin/users/u1/lock': () => {
        locked = true;
        return { body: {} };
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    await user.click(screen.getByRole('button', { name: 'Lock account' }));
    await answerConfirm(user, 'Lock account', /Ada Lovelace is signed out everywhere and cannot sign in/);
    await notice('Account locked.');
    expect(api.callsTo('POST /api/admin/users/u1/lock')).toHaveLength(1);
    expect(await screen.findByText('Account is locked.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unlock account' })).toBeInTheDocument();
  });

  it('reports a failed lock toggle', async () => {
    const { user } = open(detail({ is_locked: true }), { 'POST /api/admin/users/u1/unlock': { status: 409, body: { error: 'conflict' } } });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    await user.click(screen.getByRole('button', { name: 'Unlock account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('conflict');
  });

  it('shows how many passkeys the account has', async () => {
    const { user } = open(detail({ passkey_count: 0 }));
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    expect(screen.getByText('Passkeys:').textContent).toBe('Passkeys: 0');
    expect(screen.queryByRole('list', { name: 'Passkeys' })).toBeNull();
  });

  it('lists the passkeys and removes one after a confirmation', async () => {
    const key = (id: string, name: string, lastUsed: string | null) => ({
      id,
      name,
      created_at: '2026-01-02T10:00:00Z',
      last_used_at: lastUsed,
      backed_up: false,
    });
    let items = [key('k1', 'Unknown key', null), key('k2', 'Work laptop', '2026-01-03T10:00:00Z')];
    const { api, user } = open(detail({ passkey_count: 2 }), {
      'GET /api/admin/users/u1': () => ({ body: detail({ passkey_count: items.length }) }),
      'GET /api/admin/users/u1/passkeys': () => ({ body: { items } }),
      'DELETE /api/admin/users/u1/passkeys/k1': () => {
        items = items.filter((item) => item.id !== 'k1');
        return { body: { ok: true } };
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    const list = await screen.findByRole('list', { name: 'Passkeys' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(/^Unknown key — added .+, last used never/),
      expect.stringMatching(/^Work laptop — added .+, last used .+\d/),
    ]);
    await user.click(screen.getByRole('button', { name: 'Remove passkey Unknown key' }));
    await answerConfirm(user, 'Remove passkey', /can no longer sign in to Ada Lovelace's account/);
    await notice('Passkey "Unknown key" removed.');
    expect(api.callsTo('DELETE /api/admin/users/u1/passkeys/k1')).toHaveLength(1);
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Passkeys' }))
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([expect.stringMatching(/^Work laptop/)]),
    );
    expect(screen.getByText('Passkeys:').textContent).toBe('Passkeys: 1');
  });

  it('invalidates tokens', async () => {
    const { user } = open(detail(), { 'POST /api/admin/users/u1/actions/invalidate-sessions': { body: {} } });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    await user.click(screen.getByRole('button', { name: 'Invalidate tokens' }));
    await answerConfirm(user, 'Invalidate tokens', /Every session of Ada Lovelace ends at once/);
    await notice('Tokens invalidated.');
  });

  it('sends the soft-delete reason only when given', async () => {
    let status = 'active';
    const { api, user } = open(detail(), {
      'GET /api/admin/users/u1': () => ({ body: detail({ status }) }),
      'POST /api/admin/users/u1/soft-delete': () => {
        status = 'deleted';
        return { body: { status, deleted_at: '2025-11-23T10:00:00Z', deleted_reason: null } };
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    await user.type(screen.getByLabelText('Soft-delete reason (optional)'), '   ');
    await user.click(screen.getByRole('button', { name: 'Soft-delete account' }));
    await answerConfirm(user, 'Soft-delete account', /can be restored for 30 days/);
    await notice('User soft-deleted.');
    expect(api.callsTo('POST /api/admin/users/u1/soft-delete')[0].body).toEqual({});
    // Soft-delete is now disabled and restore offered, in the panel and in the banner.
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Soft-delete account' }).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Restore account' })).toBeInTheDocument();
  });

  it('sends a typed soft-delete reason', async () => {
    const { api, user } = open(detail(), { 'POST /api/admin/users/u1/soft-delete': { body: { status: 'deleted' } } });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    await user.type(screen.getByLabelText('Soft-delete reason (optional)'), ' spam ');
    await user.click(screen.getByRole('button', { name: 'Soft-delete account' }));
    await answerConfirm(user, 'Soft-delete account', /can no longer sign in/);
    await notice('User soft-deleted.');
    expect(api.callsTo('POST /api/admin/users/u1/soft-delete')[0].body).toEqual({ reason: 'spam' });
  });

  it('restores from the banner', async () => {
    let status = 'deleted';
    const { user } = open(detail(), {
      'GET /api/admin/users/u1': () => ({ body: detail({ status }) }),
      'POST /api/admin/users/u1/restore': () => {
        status = 'active';
        return { body: { status } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Restore' }));
    await notice('User restored.');
    await waitFor(() => expect(screen.queryByText(/soft-deleted\. Restore/)).toBeNull());
  });
});

describe('UserDrawer hard delete', () => {
  const preview = { 'GET /api/admin/users/u1/hard-delete/preview': { body: { counts: { sessions: 2, audit_entries: 5 } } } };

  async function showPanel(user: ReturnType<typeof userEvent.setup>) {
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    await user.click(screen.getByRole('button', { name: 'Advanced: Hard delete' }));
    expect(screen.getByRole('button', { name: 'Hide hard delete options' }).getAttribute('aria-expanded')).toBe('true');
  }

  it('shows a count that stopped at the cap as a lower bound ("≥ 500")', async () => {
    const heavy = {
      'GET /api/admin/users/u1/hard-delete/preview': {
        body: { counts: { sessions: 2, audit_entries: 500, audit_entries_as_actor: 3 }, at_least: ['audit_entries'] },
      },
    };
    const { user } = open(detail({ status: 'deleted', hard_delete_ready: true }), heavy);
    await showPanel(user);
    expect(await screen.findByText('audit_entries')).toBeInTheDocument();
    expect(screen.getByText('audit_entries').nextSibling?.textContent).toBe('≥ 500');
    expect(screen.getByText('audit_entries_as_actor').nextSibling?.textContent).toBe('3');
  });

  it('shows the impact and stays disabled until the typed email matches', async () => {
    const { user } = open(detail({ status: 'deleted', hard_delete_ready: true }), preview);
    await showPanel(user);
    expect(await screen.findByText('sessions')).toBeInTheDocument();
    expect(screen.getByText('audit_entries').nextSibling?.textContent).toBe('5');
    const button = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Hard delete user' });
    expect(button().disabled).toBe(true);
    const input = screen.getByLabelText("Type the user's email to confirm");
    await user.type(input, 'ada@example.org');
    expect(screen.getByText('Email confirmation does not match.')).toBeInTheDocument();
    expect(button().disabled).toBe(true);
    await user.clear(input);
    await user.type(input, 'ada@example.com');
    expect(screen.queryByText('Email confirmation does not match.')).toBeNull();
    expect(button().disabled).toBe(false);
  });

  it('stays disabled while the retention window runs', async () => {
    const { user } = open(
      detail({ status: 'deleted', hard_delete_ready: false, hard_delete_available_at: '2025-12-20T00:00:00Z' }),
      preview,
    );
    await showPanel(user);
    expect(screen.getByText('Retention window has not expired yet.')).toBeInTheDocument();
    expect(screen.getByText(`Retention window active until ${formatDate('2025-12-20T00:00:00Z')}.`)).toBeInTheDocument();
    await user.type(screen.getByLabelText("Type the user's email to confirm"), 'ada@example.com');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Hard delete user' }).disabled).toBe(true);
  });

  it('stays disabled for an account that is not soft-deleted', async () => {
    const { user } = open(detail({ status: 'active', hard_delete_ready: true }), preview);
    await showPanel(user);
    await user.type(screen.getByLabelText("Type the user's email to confirm"), 'ada@example.com');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Hard delete user' }).disabled).toBe(true);
  });

  it("shows the server's retention date on 409 retention_active", async () => {
    const { user } = open(detail({ status: 'deleted', hard_delete_ready: true }), {
      ...preview,
      'DELETE /api/admin/users/u1': { status: 409, body: { error: 'retention_active', available_on: '2025-12-24' } },
    });
    await showPanel(user);
    await user.type(screen.getByLabelText("Type the user's email to confirm"), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Hard delete user' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      `Retention window active until ${new Date(2025, 11, 24).toLocaleDateString()}.`,
    );
  });

  it('deletes with the confirmation email and closes the drawer', async () => {
    const { api, onClose, user } = open(detail({ status: 'deleted', hard_delete_ready: true }), {
      ...preview,
      'DELETE /api/admin/users/u1': { status: 204 },
    });
    await showPanel(user);
    await user.type(screen.getByLabelText("Type the user's email to confirm"), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Hard delete user' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.callsTo('DELETE /api/admin/users/u1')[0].url).toBe('/api/admin/users/u1?confirm_email=ada%40example.com');
  });

  it('reports a failed impact preview', async () => {
    const { user } = open(detail({ status: 'deleted' }), { 'GET /api/admin/users/u1/hard-delete/preview': { status: 500 } });
    await showPanel(user);
    expect((await screen.findByRole('alert')).textContent).toBe('HTTP 500');
  });
});

describe('UserDrawer modules', () => {
  const modules = [
    { module_id: 'm3', title: 'Networking', week_no: 2, module_number: 1, status: 'locked', started_at: null, completed_at: null },
    { module_id: 'm2', title: 'Resume', week_no: 1, module_number: 2, status: 'locked', started_at: null, completed_at: null },
    {
      module_id: 'm1',
      title: 'Goals',
      week_no: 1,
      module_number: 1,
      status: 'completed',
      started_at: null,
      completed_at: '2025-11-02T10:00:00Z',
    },
  ];

  it('lists modules in program order and offers the right actions', async () => {
    const { user } = open(detail({ enrollments: [enrollment(modules)] }));
    await user.click(await screen.findByRole('tab', { name: 'Modules' }));
    expect(screen.getByRole('heading', { name: 'Enrollment e1' })).toBeInTheDocument();
    expect(screen.getByText(/Program p1/)).toBeInTheDocument();
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelector('th')?.textContent)).toEqual(['Goals', 'Resume', 'Networking']);
    const goals = within(rows[0]);
    expect(goals.getByRole<HTMLButtonElement>('button', { name: 'Force complete' }).disabled).toBe(true);
    expect(goals.getByRole<HTMLButtonElement>('button', { name: 'Reopen' }).disabled).toBe(false);
    expect(within(rows[1]).getByRole<HTMLButtonElement>('button', { name: 'Lock' }).disabled).toBe(true);
  });

  it('unlocks the first locked module in program order', async () => {
    const { api, user } = open(detail({ enrollments: [enrollment(modules)] }), {
      'POST /api/admin/modules/unlock': { body: { ok: true, message: 'done' } },
    });
    await user.click(await screen.findByRole('tab', { name: 'Modules' }));
    await user.click(screen.getByRole('button', { name: 'Unlock next module' }));
    await notice('Module unlocked.');
    expect(api.callsTo('POST /api/admin/modules/unlock')[0].body).toEqual({ user_id: 'u1', module_id: 'm2' });
  });

  it('says when there is no locked module to unlock', async () => {
    const { api, user } = open(detail({ enrollments: [enrollment([modules[2]])] }));
    await user.click(await screen.findByRole('tab', { name: 'Modules' }));
    await user.click(screen.getByRole('button', { name: 'Unlock next module' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No locked modules to unlock.');
    expect(api.callsTo('POST /api/admin/modules/unlock')).toHaveLength(0);
  });

  it('asks before reopening (in the drawer, not the browser) and does nothing when declined', async () => {
    const native = vi.spyOn(window, 'confirm');
    const { api, user } = open(detail({ enrollments: [enrollment(modules)] }), {
      'POST /api/admin/modules/reopen': { body: { ok: true } },
    });
    await user.click(await screen.findByRole('tab', { name: 'Modules' }));
    const reopenGoals = () => within(screen.getAllByRole('row')[1]).getByRole('button', { name: 'Reopen' });
    await user.click(reopenGoals());
    await answerConfirm(user, 'Cancel', /has to finish its tasks again/);
    expect(api.callsTo('POST /api/admin/modules/reopen')).toHaveLength(0);
    // Focus went back to the button that asked.
    expect(document.activeElement).toBe(reopenGoals());
    await user.click(reopenGoals());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.click(reopenGoals());
    await answerConfirm(user, 'Reopen module', /completion goes down/);
    await notice('Module reopened.');
    expect(native).not.toHaveBeenCalled();
    expect(api.callsTo('POST /api/admin/modules/reopen')[0].body).toEqual({ user_id: 'u1', module_id: 'm1' });
  });

  it('force-completes without asking and reports the server message on failure', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    const { user } = open(detail({ enrollments: [enrollment(modules)] }), {
      'POST /api/admin/modules/force-complete': { status: 400, body: { error: 'invalid_state', message: 'Module already complete' } },
    });
    await user.click(await screen.findByRole('tab', { name: 'Modules' }));
    await user.click(within(screen.getAllByRole('row')[2]).getByRole('button', { name: 'Force complete' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Module already complete');
    expect(confirm).not.toHaveBeenCalled();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('refuses a module without an identifier', async () => {
    const { user } = open(detail({ enrollments: [enrollment([{ title: 'Mystery', week_no: 1, status: 'open' }])] }));
    await user.click(await screen.findByRole('tab', { name: 'Modules' }));
    await user.click(screen.getByRole('button', { name: 'Force complete' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Module identifier unavailable for override.');
  });
});

describe('UserDrawer audit', () => {
  it('pages the user audit 25 at a time', async () => {
    const { api, user } = open(detail(), {
      'GET /api/admin/users/u1/audit-logs': (call) => ({
        body: {
          items: [
            {
              id: `a-${call.url}`,
              created_at: '2025-11-23T10:00:00Z',
              action: 'user.lock',
              old_values: { a: 'x'.repeat(200) },
              new_values: null,
            },
          ],
          total: 30,
          has_next: call.url.includes('page=1'),
        },
      }),
    });
    await user.click(await screen.findByRole('tab', { name: 'Audit' }));
    const cell = (await screen.findByText('user.lock')).nextSibling as HTMLElement;
    expect(cell.textContent).toHaveLength(158);
    expect(cell.textContent?.endsWith('…')).toBe(true);
    expect(screen.getByText('Total: 30')).toBeInTheDocument();
    expect(screen.getByText('Sign-ins can take a few seconds to appear here; changes appear at once.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2');
    expect(api.callsTo('GET /api/admin/users/u1/audit-logs').map((c) => c.url)).toEqual([
      '/api/admin/users/u1/audit-logs?page=1&page_size=25',
      '/api/admin/users/u1/audit-logs?page=2&page_size=25',
    ]);
  });

  it('pages the user audit with next_cursor and back with Previous', async () => {
    const { api, user } = open(detail(), {
      'GET /api/admin/users/u1/audit-logs': (call) => {
        const second = call.url.includes('cursor=c-2');
        return {
          body: {
            items: [
              {
                id: second ? 'a2' : 'a1',
                created_at: '2025-11-23T10:00:00Z',
                action: second ? 'user.unlock' : 'user.lock',
                old_values: null,
                new_values: null,
              },
            ],
            total: 26,
            has_next: !second,
            next_cursor: second ? null : 'c-2',
          },
        };
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Audit' }));
    await screen.findByText('user.lock');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('user.unlock');
    expect(api.callsTo('GET /api/admin/users/u1/audit-logs').at(-1)?.url).toBe(
      '/api/admin/users/u1/audit-logs?page=2&page_size=25&cursor=c-2',
    );
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('user.lock');
    expect(screen.getByText('Page 1')).toBeInTheDocument();
  });

  it('says when there are no entries', async () => {
    const { user } = open(detail(), { 'GET /api/admin/users/u1/audit-logs': { body: { items: [], total: 0, has_next: false } } });
    await user.click(await screen.findByRole('tab', { name: 'Audit' }));
    expect(await screen.findByText('No audit entries yet.')).toBeInTheDocument();
  });
});

describe('UserDrawer: who and undo', () => {
  it('names the person under the title, with status chips, and in the dialog name', async () => {
    open(detail({ verified: false }));
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('dialog', { name: /User u1 Ada Lovelace/ })).toBeInTheDocument());
    const chips = screen.getByLabelText('Account state');
    expect(within(chips).getByText('active')).toBeInTheDocument();
    expect(within(chips).getByText('unverified')).toBeInTheDocument();
    expect(within(chips).getByText('learner')).toBeInTheDocument();
  });

  it('offers Undo after a soft-delete, which restores the account', async () => {
    let status = 'active';
    const { api, user } = open(detail(), {
      'GET /api/admin/users/u1': () => ({ body: detail({ status }) }),
      'POST /api/admin/users/u1/soft-delete': () => {
        status = 'deleted';
        return { body: { status } };
      },
      'POST /api/admin/users/u1/restore': () => {
        status = 'active';
        return { body: { status } };
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Security' }));
    await user.click(screen.getByRole('button', { name: 'Soft-delete account' }));
    await answerConfirm(user, 'Soft-delete account', /Soft-delete|signed out/);
    await notice('User soft-deleted.');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await notice('User restored.');
    expect(api.callsTo('POST /api/admin/users/u1/restore')).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Soft-delete account' }).disabled).toBe(false));
  });
});
