import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '@/testing/admin-test-utils';
import { mockFetch, type Handler } from '@/testing/mock-api';
import { UserDrawer } from './user-drawer';

/** A heavy account's hard delete answers 202: the drawer follows the background purge until it is done. */
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const detail = (overrides: Record<string, unknown> = {}) => ({
  id: 'u1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  status: 'deleted',
  is_locked: false,
  role: 'learner',
  verified: true,
  created_at: '2025-11-01T09:00:00Z',
  last_login_at: null,
  recent_activity: { last_login_at: null, last_progress_at: null, last_enrollment_at: null },
  retention_days: 30,
  deleted_at: '2025-09-01T09:00:00Z',
  deleted_reason: null,
  hard_delete_ready: true,
  hard_delete_available_at: '2025-10-01T09:00:00Z',
  enrollments: [],
  ...overrides,
});

function open(user: Record<string, unknown>, handlers: Record<string, Handler>) {
  const api = mockFetch({
    'GET /api/admin/users/u1': { body: user },
    'GET /api/admin/users/u1/hard-delete/preview': { body: { counts: { audit_entries: 5000 } } },
    ...handlers,
  });
  const onClose = vi.fn();
  renderAt('/admin/users', <UserDrawer userId="u1" onClose={onClose} />);
  return { api, onClose, user: userEvent.setup() };
}

async function showPanel(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('tab', { name: 'Security' }));
  await user.click(screen.getByRole('button', { name: 'Advanced: Hard delete' }));
}

describe('UserDrawer background purge', () => {
  it('shows the purge in progress after a 202, then done, and closes on request', async () => {
    let polls = 0;
    const { onClose, user } = open(detail(), {
      'DELETE /api/admin/users/u1': { status: 202, body: { deleted: false, status: 'purging', counts: {} } },
      'GET /api/admin/users/u1/hard-delete/status': () => ({
        body: {
          status: ++polls > 1 ? 'done' : 'purging',
          step: 'audit',
          counts: {},
          started_at: '2026-01-01T00:00:00Z',
          finished_at: null,
        },
      }),
    });
    await showPanel(user);
    await user.type(screen.getByLabelText("Type the user's email to confirm"), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Hard delete user' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/^Purge in progress…/);
    expect(onClose).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Purge complete. The account and its data are gone.'), {
      timeout: 5_000,
    });
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  }, 15_000); // one real 2 s poll

  it('shows a purge already running when the account is opened', async () => {
    const { api, user } = open(detail({ status: 'purging' }), {
      'GET /api/admin/users/u1/hard-delete/status': {
        body: { status: 'purging', step: 'activity', counts: {}, started_at: '2026-01-01T00:00:00Z', finished_at: null },
      },
    });
    await showPanel(user);
    expect((await screen.findByRole('status')).textContent).toMatch(/^Purge in progress…/);
    expect(screen.queryByRole('button', { name: 'Hard delete user' })).toBeNull();
    expect(api.callsTo('DELETE /api/admin/users/u1')).toHaveLength(0);
  });
});
