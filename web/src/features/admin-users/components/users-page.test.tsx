import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_PAGE_WITHOUT_CURSOR } from '@shared/constants';
import { renderAt } from '@/testing/admin-test-utils';
import { mockFetch, type FetchCall } from '@/testing/mock-api';
import { UsersPage } from './users-page';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const item = (overrides: Record<string, unknown> = {}) => ({
  id: 'u1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  status: 'active',
  is_locked: false,
  created_at: '2025-11-01T09:00:00Z',
  last_login_at: null,
  role: 'learner',
  completion_pct: 33.333,
  enrollments: 1,
  ...overrides,
});

const list = (items: unknown[], extra: Record<string, unknown> = {}) => ({
  body: { items, total: items.length, has_next: false, ...extra },
});

const params = (call: FetchCall) => Object.fromEntries(new URL(call.url, 'http://x').searchParams);
const lastList = (api: ReturnType<typeof mockFetch>) => params(api.callsTo('GET /api/admin/users').at(-1) as FetchCall);
const location = () => screen.getByTestId('location').textContent;

describe('UsersPage table', () => {
  it('shows the columns, a Deleted badge and locked/active derived from is_locked', async () => {
    mockFetch({
      'GET /api/admin/users': list([
        item(),
        item({ id: 'u2', email: 'bob@example.com', status: 'deleted' }),
        item({ id: 'u3', email: 'cy@example.com', status: '', is_locked: true }),
        item({ id: 'u4', email: 'di@example.com', status: null, is_locked: false, first_name: null }),
      ]),
    });
    renderAt('/admin/users', <UsersPage />);
    const row = async (email: string) =>
      [...((await screen.findByText(email)).closest('tr') as HTMLTableRowElement).cells].map((c) => c.textContent);
    expect(await row('ada@example.com')).toEqual([
      'ada@example.com',
      'Ada',
      'Lovelace',
      'active',
      new Date('2025-11-01T09:00:00Z').toLocaleDateString(),
      '—',
      'learner',
      '33.3',
      '1',
    ]);
    expect((await row('bob@example.com'))[3]).toBe('Deleted');
    expect(screen.getByText('Deleted', { selector: 'td span' }).className).toContain('admin-badge--deleted');
    expect((await row('cy@example.com'))[3]).toBe('locked');
    expect((await row('di@example.com'))[1]).toBe('—');
    expect((await row('di@example.com'))[3]).toBe('active');
    expect(screen.getByText('Total: 4')).toBeInTheDocument();
    // The footer says which rows these are, beside 'Total: N' and 'Page N'.
    expect(screen.getByText('1–4 of 4')).toBeInTheDocument();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next' }).disabled).toBe(true);
  });

  it('says so when nothing matches', async () => {
    mockFetch({ 'GET /api/admin/users': list([]) });
    renderAt('/admin/users', <UsersPage />);
    expect(await screen.findByText('No users found.')).toBeInTheDocument();
  });

  it("shows the server's error, else HTTP {status}", async () => {
    mockFetch({ 'GET /api/admin/users': { status: 503 } });
    renderAt('/admin/users', <UsersPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('HTTP 503');
  });
});

describe('UsersPage cursor paging', () => {
  it('pages with next_cursor, Previous pops back to the page before, and a bounded total reads "10,000+"', async () => {
    const api = mockFetch({
      'GET /api/admin/users': (call) => {
        const cursor = params(call).cursor;
        if (!cursor) return list([item()], { total: 10000, total_is_estimate: true, has_next: true, next_cursor: 'c2' });
        if (cursor === 'c2')
          return list([item({ id: 'u2', email: 'page2@example.com' })], {
            total: 10000,
            total_is_estimate: true,
            has_next: true,
            next_cursor: 'c3',
          });
        return list([item({ id: 'u3', email: 'page3@example.com' })], { total: 3, has_next: false, next_cursor: null });
      },
    });
    renderAt('/admin/users', <UsersPage />);
    const user = userEvent.setup();
    await screen.findByText('ada@example.com');
    expect(screen.getByText('Total: 10,000+')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('page2@example.com');
    expect(lastList(api)).toMatchObject({ page: '2', cursor: 'c2' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('page3@example.com');
    expect(lastList(api)).toMatchObject({ page: '3', cursor: 'c3' });
    expect(screen.getByText('Total: 3')).toBeInTheDocument();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next' }).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('page2@example.com');
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('ada@example.com');
    expect(screen.getByText('Page 1')).toBeInTheDocument();
  });

  it('says when a page stopped at the read budget', async () => {
    mockFetch({
      'GET /api/admin/users': list([], { total: 1, total_is_estimate: true, has_next: true, next_cursor: 'c2', truncated: true }),
    });
    renderAt('/admin/users', <UsersPage />);
    expect(await screen.findByText('More accounts may match: Next continues the search.')).toBeInTheDocument();
    expect(screen.getByText('Total: 1+')).toBeInTheDocument();
  });
});

describe('UsersPage page in the address', () => {
  const paged = (call: FetchCall) => {
    const { cursor, page } = params(call);
    if (cursor === 'c2' || (!cursor && page === '2'))
      return list([item({ id: 'u2', email: 'page2@example.com' })], { total: 31, has_next: false });
    return list([item()], { total: 31, has_next: true, next_cursor: 'c2' });
  };

  it('Next pushes ?page=2&cursor=…; Back returns to page 1 and Forward to page 2', async () => {
    const api = mockFetch({ 'GET /api/admin/users': paged });
    const { router } = renderAt('/admin/users?filter=active7d', <UsersPage />);
    const user = userEvent.setup();
    await screen.findByText('ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('page2@example.com');
    expect(location()).toBe('/admin/users?filter=active7d&page=2&cursor=c2');
    expect(router.state.historyAction).toBe('PUSH');
    expect(lastList(api)).toMatchObject({ page: '2', cursor: 'c2', filter: 'active7d' });
    expect(screen.getByText('26–26 of 31')).toBeTruthy();
    await act(() => router.navigate(-1));
    await screen.findByText('ada@example.com');
    expect(screen.getByText('Page 1')).toBeTruthy();
    await act(() => router.navigate(1));
    await screen.findByText('page2@example.com');
    expect(screen.getByText('Page 2')).toBeTruthy();
  });

  it('opens page 2 straight from the address (a reload), and Previous without a known cursor asks by page number', async () => {
    const api = mockFetch({ 'GET /api/admin/users': paged });
    renderAt('/admin/users?page=2&cursor=c2&size=50', <UsersPage />);
    const user = userEvent.setup();
    await screen.findByText('page2@example.com');
    expect(lastList(api)).toEqual({ page: '2', page_size: '50', cursor: 'c2' });
    expect(screen.getByText('Page 2')).toBeTruthy();
    expect(screen.getByLabelText<HTMLSelectElement>('Rows per page').value).toBe('50');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('ada@example.com');
    expect(location()).toBe('/admin/users?size=50');
    expect(lastList(api)).toEqual({ page: '1', page_size: '50' });
  });

  it('reads a page without a cursor by its number, and ignores a nonsense page', async () => {
    const api = mockFetch({ 'GET /api/admin/users': paged });
    renderAt('/admin/users?page=2', <UsersPage />);
    await screen.findByText('page2@example.com');
    expect(lastList(api)).toEqual({ page: '2', page_size: '25' });
    const again = mockFetch({ 'GET /api/admin/users': paged });
    renderAt('/admin/users?page=-3&cursor=c2', <UsersPage />);
    await waitFor(() => expect(again.callsTo('GET /api/admin/users').length).toBeGreaterThan(0));
    expect(lastList(again)).toEqual({ page: '1', page_size: '25' });
  });

  it('keeps the cursors of the pages before in the address: Previous after a reload reads them, never a deep page by number', async () => {
    // page k is `page{k}@example.com`, read by its cursor c{k} (or, without one, by its number)
    const deep = (call: FetchCall) => {
      const { cursor, page } = params(call);
      const k = cursor ? Number(cursor.slice(1)) : Number(page ?? 1);
      return list([item({ id: `u${k}`, email: `page${k}@example.com` })], { total: 900, has_next: true, next_cursor: `c${k + 1}` });
    };
    const api = mockFetch({ 'GET /api/admin/users': deep });
    const user = userEvent.setup();
    const first = renderAt('/admin/users?status=locked', <UsersPage />);
    await screen.findByText('page1@example.com');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('page2@example.com');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('page3@example.com');
    expect(location()).toBe('/admin/users?status=locked&page=3&cursor=c3&back=c2');
    first.unmount();

    // a reload deep in the list: only the address is left
    renderAt(`/admin/users?status=active&page=${MAX_PAGE_WITHOUT_CURSOR + 3}&cursor=c8&back=c6&back=c7`, <UsersPage />);
    await screen.findByText('page8@example.com');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('page7@example.com');
    expect(lastList(api)).toEqual({ page: '7', page_size: '25', status: 'active', cursor: 'c7' });
    expect(location()).toBe('/admin/users?status=active&page=7&cursor=c7&back=c6');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('page6@example.com');
    expect(lastList(api)).toMatchObject({ page: '6', cursor: 'c6' });
    // page 5 has no cursor left: the server serves it by its number (MAX_PAGE_WITHOUT_CURSOR)
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('page5@example.com');
    expect(lastList(api)).toEqual({ page: '5', page_size: '25', status: 'active' });
    // and Next from a page read by number keeps a place for its (unknown) cursor
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('page6@example.com');
    expect(location()).toBe('/admin/users?status=active&page=6&cursor=c6&back=');
  });

  it('opens a deep page typed without its cursor at page 1 (the server would refuse it)', async () => {
    const api = mockFetch({ 'GET /api/admin/users': list([item()], { total: 900, has_next: true, next_cursor: 'c2' }) });
    renderAt(`/admin/users?page=${MAX_PAGE_WITHOUT_CURSOR + 1}`, <UsersPage />);
    await screen.findByText('ada@example.com');
    expect(lastList(api)).toEqual({ page: '1', page_size: '25' });
    expect(screen.getByText('Page 1')).toBeTruthy();
  });

  it('shows a verification chip beside the status of an unverified account', async () => {
    mockFetch({ 'GET /api/admin/users': list([item({ verified: false }), item({ id: 'u2', email: 'ok@example.com', verified: true })]) });
    renderAt('/admin/users', <UsersPage />);
    const statusCell = async (email: string) => ((await screen.findByText(email)).closest('tr') as HTMLTableRowElement).cells[3];
    const pending = await statusCell('ada@example.com');
    expect(pending.textContent).toBe('activeunverified');
    expect(pending.querySelector('.admin-badge--unverified')).not.toBeNull();
    expect((await statusCell('ok@example.com')).textContent).toBe('active');
  });
});

describe('UsersPage address', () => {
  it('reads q, filter and status from the address (unknown status treated as empty)', async () => {
    const api = mockFetch({ 'GET /api/admin/users': list([]) });
    renderAt('/admin/users?filter=unverified&q=ada&status=bogus', <UsersPage />);
    await screen.findByText('No users found.');
    expect(lastList(api)).toEqual({ page: '1', page_size: '25', query: 'ada', filter: 'unverified' });
    expect(screen.getByLabelText<HTMLSelectElement>('Cohort').value).toBe('unverified');
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('');
    expect(screen.getByPlaceholderText<HTMLInputElement>('Search email or name').value).toBe('ada');
  });

  it('lists the learners stalled at a module under a removable "Stalled at" chip (a funnel row link)', async () => {
    const funnel = [{ module_id: 'm2', slug: 'cv', title: 'Your CV', week_number: 2, completed: 2, in_progress: 4 }];
    const api = mockFetch({ 'GET /api/admin/users': list([item()]), 'GET /api/admin/summary': { body: { funnel } } });
    renderAt('/admin/users?stalled_at=m2', <UsersPage />);
    await screen.findByText('ada@example.com');
    expect(lastList(api)).toEqual({ page: '1', page_size: '25', stalled_at: 'm2' });
    expect(await screen.findByText('Stalled at: Your CV')).toBeInTheDocument();
    // the export writes no stalled list: not offered for it
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Remove filter Stalled at: Your CV' }));
    await waitFor(() => expect(location()).toBe('/admin/users'));
    await waitFor(() => expect(lastList(api)).toEqual({ page: '1', page_size: '25' }));
    expect(screen.queryByText('Stalled at: Your CV')).toBeNull();
  });

  it('leaves the stalled list when a cohort is chosen (the API lists one or the other)', async () => {
    const api = mockFetch({ 'GET /api/admin/users': list([]), 'GET /api/admin/summary': { body: { funnel: [] } } });
    renderAt('/admin/users?stalled_at=m2', <UsersPage />);
    await screen.findByText('No users found.');
    await userEvent.setup().selectOptions(screen.getByLabelText('Cohort'), 'active7d');
    await waitFor(() => expect(location()).toBe('/admin/users?filter=active7d'));
    await waitFor(() => expect(lastList(api)).toEqual({ page: '1', page_size: '25', filter: 'active7d' }));
  });

  it('links status Deleted with the deleted cohort both ways, replacing the address', async () => {
    const api = mockFetch({ 'GET /api/admin/users': list([]) });
    const { router } = renderAt('/admin/users', <UsersPage />);
    const user = userEvent.setup();
    await screen.findByText('No users found.');

    await user.selectOptions(screen.getByLabelText('Status'), 'deleted');
    await waitFor(() => expect(location()).toBe('/admin/users?status=deleted&filter=deleted'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.getByLabelText<HTMLSelectElement>('Cohort').value).toBe('deleted');
    await waitFor(() => expect(lastList(api)).toMatchObject({ status: 'deleted', filter: 'deleted' }));

    // Leaving deleted on the cohort clears the linked status.
    await user.selectOptions(screen.getByLabelText('Cohort'), 'active7d');
    await waitFor(() => expect(location()).toBe('/admin/users?filter=active7d'));

    // Choosing the deleted cohort sets the status; leaving it on the status clears the cohort.
    await user.selectOptions(screen.getByLabelText('Cohort'), 'deleted');
    await waitFor(() => expect(location()).toBe('/admin/users?filter=deleted&status=deleted'));
    await user.selectOptions(screen.getByLabelText('Status'), 'all');
    await waitFor(() => expect(location()).toBe('/admin/users?status=all'));
    expect(screen.getByLabelText<HTMLInputElement>('Include deleted').checked).toBe(true);
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it("'Include deleted' sets status all and clearing it empties the status", async () => {
    mockFetch({ 'GET /api/admin/users': list([]) });
    renderAt('/admin/users', <UsersPage />);
    const user = userEvent.setup();
    await screen.findByText('No users found.');
    await user.click(screen.getByLabelText('Include deleted'));
    await waitFor(() => expect(location()).toBe('/admin/users?status=all'));
    await user.click(screen.getByLabelText('Include deleted'));
    await waitFor(() => expect(location()).toBe('/admin/users'));
  });

  it('returns to page 1 on a filter or page-size change', async () => {
    const api = mockFetch({ 'GET /api/admin/users': list([item()], { total: 60, has_next: true }) });
    renderAt('/admin/users', <UsersPage />);
    const user = userEvent.setup();
    await screen.findByText('ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2')).toBeInTheDocument();
    await waitFor(() => expect(lastList(api).page).toBe('2'));
    expect(await screen.findByText('26–26 of 60')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Cohort'), 'active30d');
    expect(await screen.findByText('Page 1')).toBeInTheDocument();
    await waitFor(() => expect(lastList(api)).toEqual({ page: '1', page_size: '25', filter: 'active30d' }));

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2');
    await user.selectOptions(screen.getByLabelText('Rows per page'), '50');
    expect(await screen.findByText('Page 1')).toBeInTheDocument();
    await waitFor(() => expect(lastList(api)).toEqual({ page: '1', page_size: '50', filter: 'active30d' }));
  });

  it('applies the search 350 ms after typing stops, trimmed, on page 1, replacing the address', async () => {
    const api = mockFetch({ 'GET /api/admin/users': list([item()], { total: 60, has_next: true }) });
    const { router } = renderAt('/admin/users', <UsersPage />);
    const user = userEvent.setup();
    await screen.findByText('ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2');

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const box = screen.getByPlaceholderText('Search email or name');
    fireEvent.change(box, { target: { value: ' ad' } });
    act(() => {
      vi.advanceTimersByTime(200);
    });
    fireEvent.change(box, { target: { value: ' ada ' } });
    act(() => {
      vi.advanceTimersByTime(349);
    });
    expect(location()).toBe('/admin/users?page=2');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(location()).toBe('/admin/users?q=ada');
    expect(router.state.historyAction).toBe('REPLACE');
    vi.useRealTimers();

    await waitFor(() => expect(lastList(api)).toEqual({ page: '1', page_size: '25', query: 'ada' }));
    expect(screen.getByText('Page 1')).toBeInTheDocument();
    // Only the final text was ever sent.
    expect(api.callsTo('GET /api/admin/users').some((call) => params(call).query === 'ad')).toBe(false);
  });

  it('opens the drawer from the row button (named by the email) and by a click on the row', async () => {
    mockFetch({
      'GET /api/admin/users': list([item()]),
      'GET /api/admin/users/u1': {
        body: {
          id: 'u1',
          email: 'ada@example.com',
          first_name: 'Ada',
          last_name: 'Lovelace',
          status: 'active',
          verified: true,
          enrollments: [],
        },
      },
    });
    renderAt('/admin/users', <UsersPage />);
    const user = userEvent.setup();
    const open = await screen.findByRole('button', { name: 'ada@example.com' });
    expect(open.tagName).toBe('BUTTON');
    // the row itself is no longer a focus stop: the button is
    expect(open.closest('tr')?.hasAttribute('tabindex')).toBe(false);
    await user.click(open);
    expect(screen.getByRole('dialog', { name: /^User u1.*Ada Lovelace/ })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    // Focus went back to the button that opened it; Enter opens it again.
    expect(document.activeElement).toBe(open);
    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: /^User u1/ })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    // a pointer click elsewhere on the row opens it as well, and focus returns to the row's button
    await user.click(screen.getByText('Lovelace', { selector: 'td' }));
    expect(screen.getByRole('dialog', { name: /^User u1/ })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(open);
  });

  it('opens the drawer of ?user=<id> (an audit log target link)', async () => {
    mockFetch({
      'GET /api/admin/users': list([item()]),
      'GET /api/admin/users/u1': { body: { id: 'u1', email: 'ada@example.com', status: 'active', verified: true, enrollments: [] } },
    });
    renderAt('/admin/users?user=u1', <UsersPage />);
    expect(await screen.findByRole('dialog', { name: /^User u1/ })).toBeInTheDocument();
  });
});

describe('UsersPage export', () => {
  it('"Export CSV" asks for exactly the list the screen shows: its search, status and cohort', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const api = mockFetch({ 'GET /api/admin/users': list([item()]), 'GET /api/admin/users/export.csv': { body: 'id\r\n' } });
    renderAt('/admin/users?q=ada&status=locked&filter=unverified', <UsersPage />);
    await screen.findByText('ada@example.com');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(api.callsTo('GET /api/admin/users/export.csv')).toHaveLength(1));
    expect(params(api.callsTo('GET /api/admin/users/export.csv')[0])).toEqual({ query: 'ada', status: 'locked', filter: 'unverified' });
    expect(lastList(api)).toMatchObject({ query: 'ada', status: 'locked', filter: 'unverified' });
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    click.mockRestore();
  });
});
