import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '@/testing/admin-test-utils';
import { mockFetch } from '@/testing/mock-api';
import { AuditLogPage } from './audit-log-page';

afterEach(() => vi.unstubAllGlobals());

const longJson = { note: 'x'.repeat(300) };
const agent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

const entry = (overrides: Record<string, unknown> = {}) => ({
  id: 'a1',
  created_at: '2025-11-23T10:00:00Z',
  action: 'user.lock',
  old_values: { status: 'active' },
  new_values: longJson,
  actor_email: 'admin@example.com',
  actor_user_id: 'admin-1',
  entity_type: 'user',
  entity_id: 'u-42',
  ip: '203.0.113.9',
  user_agent: agent,
  ...overrides,
});

const page = (items: unknown[], extra: Record<string, unknown> = {}) => ({
  body: { items, total: items.length, has_next: false, ...extra },
});

describe('AuditLogPage', () => {
  it('shows entries: actor, target, JSON cut at 160 and the user agent cut at 64', async () => {
    mockFetch({ 'GET /api/admin/audit-logs': page([entry()]) });
    renderAt('/admin/audit', <AuditLogPage />);
    expect(screen.getByRole('status').textContent).toBe('Loading audit log…');
    const row = (await screen.findByText('user.lock')).closest('tr') as HTMLTableRowElement;
    const cells = [...row.cells].map((cell) => cell.textContent);
    expect(cells[1]).toBe('admin@example.com');
    expect(cells[3]).toBe('user #u-42');
    expect(cells[4]).toBe('{"status":"active"}');
    const after = JSON.stringify(longJson);
    expect(cells[5]).toBe(`${after.slice(0, 157)}…`);
    expect(cells[5]).toHaveLength(158);
    expect(cells[6]).toBe(`203.0.113.9${agent.slice(0, 64)}`);
    expect(screen.getByText('Total: 1')).toBeInTheDocument();
  });

  it('keeps JSON of exactly 160 characters whole', async () => {
    const exact = 'y'.repeat(160);
    mockFetch({ 'GET /api/admin/audit-logs': page([entry({ new_values: exact, actor_email: null })]) });
    renderAt('/admin/audit', <AuditLogPage />);
    const row = (await screen.findByText('user.lock')).closest('tr') as HTMLTableRowElement;
    expect(row.cells[5].textContent).toBe(exact);
    // No email: the actor falls back to the user id.
    expect(row.cells[1].textContent).toBe('admin-1');
  });

  it('shows — for an unknown actor', async () => {
    mockFetch({ 'GET /api/admin/audit-logs': page([entry({ actor_email: null, actor_user_id: null })]) });
    renderAt('/admin/audit', <AuditLogPage />);
    const row = (await screen.findByText('user.lock')).closest('tr') as HTMLTableRowElement;
    expect(row.cells[1].textContent).toBe('—');
  });

  it('says so when nothing matches', async () => {
    mockFetch({ 'GET /api/admin/audit-logs': page([]) });
    renderAt('/admin/audit', <AuditLogPage />);
    expect(await screen.findByText('No audit entries found.')).toBeInTheDocument();
  });

  it('sends trimmed filters with the default page size of 50, and Clear drops them', async () => {
    const api = mockFetch({ 'GET /api/admin/audit-logs': page([]) });
    renderAt('/admin/audit', <AuditLogPage />);
    const user = userEvent.setup();
    await screen.findByText('No audit entries found.');
    expect(api.calls[0].url).toBe('/api/admin/audit-logs?page=1&page_size=50');
    const lagNote = 'Filtered results can take a few seconds to include the newest sign-ins.';
    expect(screen.queryByText(lagNote)).not.toBeInTheDocument();

    await user.type(screen.getByPlaceholderText('Actor email contains…'), '  admin@ ');
    await user.type(screen.getByLabelText('Entity type'), ' user ');
    await user.type(screen.getByLabelText('Action key'), ' user.lock');
    await waitFor(() => {
      const last = new URL(api.calls[api.calls.length - 1].url, 'http://x');
      expect(Object.fromEntries(last.searchParams)).toEqual({
        page: '1',
        page_size: '50',
        actor: 'admin@',
        entity_type: 'user',
        action: 'user.lock',
      });
    });
    // filters read references the stream writes: the page says they may trail
    expect(await screen.findByText(lagNote)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(api.calls[api.calls.length - 1].url).toBe('/api/admin/audit-logs?page=1&page_size=50'));
    expect(screen.getByLabelText<HTMLInputElement>('Actor').value).toBe('');
    await waitFor(() => expect(screen.queryByText(lagNote)).not.toBeInTheDocument());
  });

  it('returns to page 1 when a filter changes', async () => {
    const api = mockFetch({ 'GET /api/admin/audit-logs': page([entry()], { total: 80, has_next: true }) });
    renderAt('/admin/audit', <AuditLogPage />);
    const user = userEvent.setup();
    await screen.findByText('user.lock');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('Page 2')).toBeInTheDocument());
    expect(api.calls[api.calls.length - 1].url).toContain('page=2');
    await user.selectOptions(screen.getByLabelText('Rows per page'), '100');
    await waitFor(() => expect(screen.getByText('Page 1')).toBeInTheDocument());
    expect(api.calls[api.calls.length - 1].url).toBe('/api/admin/audit-logs?page=1&page_size=100');
  });

  it('pages with next_cursor and Previous returns to the first page; a bounded total reads "1,000+"', async () => {
    const api = mockFetch({
      'GET /api/admin/audit-logs': (call) =>
        new URL(call.url, 'http://x').searchParams.get('cursor') === 'next-1'
          ? page([entry({ id: 'e2', action: 'user.unlock' })], { total: 51, has_next: false, next_cursor: null })
          : page([entry()], { total: 1000, total_is_estimate: true, has_next: true, next_cursor: 'next-1' }),
    });
    renderAt('/admin/audit', <AuditLogPage />);
    const user = userEvent.setup();
    await screen.findByText('user.lock');
    expect(screen.getByText('Total: 1,000+')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('user.unlock');
    expect(api.calls[api.calls.length - 1].url).toBe('/api/admin/audit-logs?page=2&page_size=50&cursor=next-1');
    expect(screen.getByText('Total: 51')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('user.lock');
    expect(screen.getByText('Page 1')).toBeInTheDocument();
  });

  it("reports a failure with the server's error field", async () => {
    mockFetch({ 'GET /api/admin/audit-logs': { status: 400, body: { error: 'invalid_request' } } });
    renderAt('/admin/audit', <AuditLogPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('invalid_request');
  });

  it('speaks in sentences beside the key, links user targets to their drawer, and shows a diff on demand', async () => {
    mockFetch({
      'GET /api/admin/audit-logs': page([
        entry({
          action: 'admin.user.lock',
          old_values: { first_name: 'Maya', last_name: 'Okafor', status: 'active' },
          new_values: { status: 'locked' },
        }),
      ]),
    });
    renderAt('/admin/audit', <AuditLogPage />);
    expect(await screen.findByText('Admin locked Maya Okafor')).toBeInTheDocument();
    const row = screen.getByText('admin.user.lock').closest('tr') as HTMLTableRowElement;
    expect(screen.getByText('admin.user.lock').tagName).toBe('CODE');
    const link = screen.getByRole('link', { name: /user #u-42: open Maya Okafor/ });
    expect(link.getAttribute('href')).toBe('/admin/users?user=u-42');
    // Before/After cells stay cut as before; the details hold the full values and the diff.
    expect(row.cells[4].textContent).toBe('{"first_name":"Maya","last_name":"Okafor","status":"active"}');
    const user = userEvent.setup();
    await user.click(screen.getByText('Full values and diff'));
    const diff = screen.getByRole('table', { name: 'Changed values' });
    const status = within(diff).getByRole('rowheader', { name: 'status' }).closest('tr') as HTMLTableRowElement;
    expect(status.querySelector('del')?.textContent).toBe('active');
    expect(status.querySelector('ins')?.textContent).toBe('locked');
  });
});

describe('AuditLogPage export', () => {
  it('"Export CSV" asks for the log with the filters applied on screen', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const api = mockFetch({ 'GET /api/admin/audit-logs': page([entry()]), 'GET /api/admin/audit-logs/export.csv': { body: 'id\r\n' } });
    renderAt('/admin/audit', <AuditLogPage />);
    await screen.findByText('user.lock');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Action key'), 'admin.user.lock');
    await waitFor(() => expect(api.callsTo('GET /api/admin/audit-logs').at(-1)?.url).toContain('action=admin.user.lock'));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(api.callsTo('GET /api/admin/audit-logs/export.csv')).toHaveLength(1));
    expect(api.callsTo('GET /api/admin/audit-logs/export.csv')[0].url).toBe('/api/admin/audit-logs/export.csv?action=admin.user.lock');
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    click.mockRestore();
  });
});
