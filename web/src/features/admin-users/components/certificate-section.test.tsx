import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '@/testing/admin-test-utils';
import { mockFetch } from '@/testing/mock-api';
import { formatDate } from '@/utils/format';
import { UserDrawer } from './user-drawer';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const detail = (certificate: unknown) => ({
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
  retention_days: 30,
  enrollments: [],
  certificate,
});

const issued = {
  verification_code: 'K7QF-2M9X-PA4D',
  issued_at: '2025-11-20T10:00:00Z',
  completed_at: '2025-11-20T09:59:00Z',
  revoked_at: null,
};

describe('the drawer certificate line', () => {
  it('says "No certificate" and offers no revoke button when none was issued', async () => {
    mockFetch({ 'GET /api/admin/users/u1': { body: detail(null) } });
    renderAt('/admin/users', <UserDrawer userId="u1" onClose={() => {}} />);
    expect(await screen.findByText('No certificate')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Revoke certificate' })).toBeNull();
  });

  it('shows the issued date and code; "Revoke certificate" asks first, then revokes', async () => {
    const api = mockFetch({
      'GET /api/admin/users/u1': { body: detail(issued) },
      'POST /api/admin/users/u1/certificate/revoke': {
        body: { ok: true, verification_code: issued.verification_code, revoked_at: '2025-11-23T12:00:00Z' },
      },
    });
    renderAt('/admin/users', <UserDrawer userId="u1" onClose={() => {}} />);
    const line = await screen.findByText(/Issued/);
    expect(line.textContent).toBe(`Issued ${formatDate(issued.issued_at)} · code ${issued.verification_code}`);
    const user = userEvent.setup();

    // Cancel changes nothing
    await user.click(screen.getByRole('button', { name: 'Revoke certificate' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toMatch(/K7QF-2M9X-PA4D.*revoked/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('POST /api/admin/users/u1/certificate/revoke')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke certificate' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke certificate' }));
    await waitFor(() => expect(api.callsTo('POST /api/admin/users/u1/certificate/revoke')).toHaveLength(1));
    expect(await screen.findByText('Certificate revoked.')).toBeTruthy();
  });

  it('shows a revoked certificate as revoked, without the button', async () => {
    mockFetch({ 'GET /api/admin/users/u1': { body: detail({ ...issued, revoked_at: '2025-11-22T08:00:00Z' }) } });
    renderAt('/admin/users', <UserDrawer userId="u1" onClose={() => {}} />);
    expect((await screen.findByText(/Issued/)).textContent).toContain(`revoked ${formatDate('2025-11-22T08:00:00Z')}`);
    expect(screen.queryByRole('button', { name: 'Revoke certificate' })).toBeNull();
  });
});
