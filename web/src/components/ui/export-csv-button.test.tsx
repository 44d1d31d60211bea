import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../testing/admin-test-utils';
import { mockFetch } from '../../testing/mock-api';
import { ExportCsvButton } from './export-csv-button';

const createObjectURL = vi.fn(() => 'blob:csv');
let clicked: { href: string; download: string }[];

beforeEach(() => {
  clicked = [];
  Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const csvReply = (headers: Record<string, string> = {}) => ({
  body: 'id,email\r\nu1,ada@example.com\r\n',
  contentType: 'text/csv; charset=utf-8',
  headers: { 'Content-Disposition': 'attachment; filename="users-20251123-1000.csv"', ...headers },
});

describe('ExportCsvButton', () => {
  it('downloads the file under the name the server gives', async () => {
    const api = mockFetch({ 'GET /api/admin/users/export.csv': csvReply() });
    renderAt('/admin/users', <ExportCsvButton path="/api/admin/users/export.csv?status=locked" fallbackName="users.csv" />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toEqual([{ href: 'blob:csv', download: 'users-20251123-1000.csv' }]));
    expect(api.calls).toEqual([
      {
        method: 'GET',
        path: '/api/admin/users/export.csv',
        url: '/api/admin/users/export.csv?status=locked',
        body: undefined,
        contentType: null,
      },
    ]);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says when the server cut the file at its row cap', async () => {
    mockFetch({ 'GET /api/admin/users/export.csv': csvReply({ 'X-Export-Truncated': 'true', 'X-Export-Rows': '8412' }) });
    renderAt('/admin/users', <ExportCsvButton path="/api/admin/users/export.csv" fallbackName="users.csv" />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'The file holds the first 8,412 rows: narrow the filters to export the rest.',
    );
  });

  it("shows the server's error code and downloads nothing", async () => {
    mockFetch({ 'GET /api/admin/users/export.csv': { status: 400, body: { error: 'invalid_filter' } } });
    renderAt('/admin/users', <ExportCsvButton path="/api/admin/users/export.csv?filter=x" fallbackName="users.csv" />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Export failed: invalid_filter');
    expect(clicked).toEqual([]);
  });
});
