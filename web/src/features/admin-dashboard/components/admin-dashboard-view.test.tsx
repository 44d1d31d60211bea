import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '@/testing/admin-test-utils';
import { mockFetch } from '@/testing/mock-api';
import { formatMonthDay as shortMonthDay } from '@/utils/format';
import { integerTicks } from '../utils/format';
import { AdminDashboardView } from './admin-dashboard-view';

// Victory is not needed to check the page; the lazy chart module is replaced by a marker.
vi.mock('./actives-chart', () => ({
  default: ({ label, data }: { label: string; data: unknown[] }) => <div data-testid="chart">{`${label}: ${data.length} points`}</div>,
}));

afterEach(() => vi.unstubAllGlobals());

const summary = (overrides: Record<string, unknown> = {}) => ({
  as_of_utc: '2025-11-23T10:00:00Z',
  dropoff_method: '7d',
  cards: {
    total_users: 120,
    total_enrollments: 95,
    avg_completion: 42.345,
    active_7d: 17,
    active_30d: 44,
    verification_rate: 0.8333,
    week1_dropoff: 0.25,
    week1_measured: 60,
  },
  completion: { aggregate_pct: 40 },
  drill: {
    active_7d: '/admin/users?filter=active7d',
    active_30d: '/admin/users?filter=active30d',
    unverified: '/admin/users?filter=unverified',
    week1_dropoff: '/admin/users?filter=week1_dropoff',
  },
  series: {
    actives_7d_daily: [
      { date: '2025-11-22', count: 3 },
      { date: '2025-11-23', count: 5 },
    ],
    actives_30d_daily: [{ date: '2025-11-23', count: 5 }],
  },
  ...overrides,
});

const card = (title: string) => screen.getByRole('heading', { name: title, level: 2 }).parentElement as HTMLElement;
const usersStub = { path: '/admin/users', element: <p>users page</p> };

describe('AdminDashboardView', () => {
  it('shows the seven cards with their values and subtitles', async () => {
    mockFetch({ 'GET /api/admin/summary': { body: summary() } });
    renderAt('/admin/dashboard', <AdminDashboardView />);
    expect(screen.getByRole('status').textContent).toBe('Loading admin dashboard…');
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Admin Dashboard');
    expect(screen.getByText(/^As of /).textContent).toBe(`As of ${new Date('2025-11-23T10:00:00Z').toLocaleString()}`);
    expect(screen.getByText(/trail sign-ins/).textContent).toBe('Active-learner figures may trail sign-ins by a few seconds.');

    expect(card('Users').textContent).toBe('Users12017 active (7d)');
    expect(card('Enrollments').textContent).toBe('Enrollments95Across all programs');
    expect(card('Avg Completion').textContent).toBe('Avg Completion42.3%Aggregate: 40.0%');
    expect(card('Active 7d').textContent).toBe('Active 7d17');
    expect(card('Active 30d').textContent).toBe('Active 30d44');
    // Fractions become percents with one decimal.
    expect(card('Verification Rate').textContent).toBe('Verification Rate83.3%Click to view unverified accounts');
    expect(card('Week-1 Drop-off').textContent).toBe('Week-1 Drop-off25.0%7-day completion window');
  });

  it('shows "—" and why for the week-1 drop-off while no enrollment is a week old, never 0.0 %', async () => {
    const base = summary();
    mockFetch({ 'GET /api/admin/summary': { body: { ...base, cards: { ...base.cards, week1_dropoff: 0, week1_measured: 0 } } } });
    renderAt('/admin/dashboard', <AdminDashboardView />);
    expect(await screen.findByRole('heading', { name: 'Week-1 Drop-off' })).toBeInTheDocument();
    expect(card('Week-1 Drop-off').textContent).toBe('Week-1 Drop-off—7-day completion windowNo enrollment is a week old yet');
    expect(card('Week-1 Drop-off').textContent).not.toContain('0.0%');
  });

  it('names the overall window when the drop-off method is not 7d, and draws both charts', async () => {
    mockFetch({ 'GET /api/admin/summary': { body: summary({ dropoff_method: 'overall' }) } });
    renderAt('/admin/dashboard', <AdminDashboardView />);
    expect(await screen.findByText('Overall completion window')).toBeInTheDocument();
    const charts = await screen.findAllByTestId('chart');
    expect(charts.map((c) => c.textContent)).toEqual(['7-Day Actives: 2 points', '30-Day Actives: 1 points']);
    expect(screen.getByRole('heading', { name: '7-Day Actives' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '30-Day Actives' })).toBeInTheDocument();
  });

  it('makes only the four drill cards links to the server addresses', async () => {
    mockFetch({ 'GET /api/admin/summary': { body: summary() } });
    renderAt('/admin/dashboard', <AdminDashboardView />);
    await screen.findByRole('heading', { name: 'Users' });
    const links = screen.getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/admin/users?filter=active7d',
      '/admin/users?filter=active30d',
      '/admin/users?filter=unverified',
      '/admin/users?filter=week1_dropoff',
    ]);
    expect(within(card('Users')).queryByRole('link')).toBeNull();
  });

  it('follows a drill card on Enter', async () => {
    mockFetch({ 'GET /api/admin/summary': { body: summary() } });
    renderAt('/admin/dashboard', <AdminDashboardView />, [usersStub]);
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Users' });
    screen.getByRole('link', { name: /Verification Rate/ }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('users page')).toBeInTheDocument();
    expect(screen.getByTestId('location').textContent).toBe('/admin/users?filter=unverified');
  });

  it('follows a drill card on Space', async () => {
    mockFetch({ 'GET /api/admin/summary': { body: summary() } });
    renderAt('/admin/dashboard', <AdminDashboardView />, [usersStub]);
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Users' });
    screen.getByRole('link', { name: /Week-1 Drop-off/ }).focus();
    await user.keyboard(' ');
    expect(await screen.findByText('users page')).toBeInTheDocument();
    expect(screen.getByTestId('location').textContent).toBe('/admin/users?filter=week1_dropoff');
  });

  it("shows the server's error field, else HTTP status", async () => {
    mockFetch({ 'GET /api/admin/summary': { status: 500, body: { error: 'summary_unavailable' } } });
    renderAt('/admin/dashboard', <AdminDashboardView />);
    expect((await screen.findByRole('alert')).textContent).toBe('Error loading admin dashboard: summary_unavailable');
  });

  it('falls back to HTTP {status} without an error field', async () => {
    mockFetch({ 'GET /api/admin/summary': { status: 502 } });
    renderAt('/admin/dashboard', <AdminDashboardView />);
    expect((await screen.findByRole('alert')).textContent).toBe('Error loading admin dashboard: HTTP 502');
  });
});

describe('the module funnel (where learners stall)', () => {
  const funnel = [
    { module_id: 'm1', slug: 'welcome', title: 'Welcome', week_number: 1, completed: 6, in_progress: 2 },
    { module_id: 'm2', slug: 'cv', title: 'Your CV', week_number: 2, completed: 2, in_progress: 4 },
    { module_id: 'm3', slug: 'network', title: 'Your network', week_number: 2, completed: 1, in_progress: 1 },
  ];

  it('writes every row out under the activity charts: reach of the starters, and the largest drop marked', async () => {
    const api = mockFetch({ 'GET /api/admin/summary': { body: summary({ funnel }) } });
    renderAt('/admin/dashboard', <AdminDashboardView />);
    const list = await screen.findByRole('list', { name: 'Learners who reached each module, of those who started' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'W1 · Welcome8 of 8, 100 %',
      'W2 · Your CV6 of 8, 75 % Largest drop: 4 stop here',
      'W2 · Your network2 of 8, 25 %',
    ]);
    // each bar's parts are sized on the most learners that reached a module (8)
    const widths = rows.map((row) => [...row.querySelectorAll<HTMLElement>('.funnel__bar')].map((bar) => bar.style.width));
    expect(widths).toEqual([
      ['75%', '25%'],
      ['25%', '50%'],
      ['12.5%', '12.5%'],
    ]);
    // each row links to the users list of the learners stalled there
    expect(rows.map((row) => within(row).getByRole('link').getAttribute('href'))).toEqual([
      '/admin/users?stalled_at=m1',
      '/admin/users?stalled_at=m2',
      '/admin/users?stalled_at=m3',
    ]);
    expect(within(rows[1]).getByRole('link').textContent).toBe('W2 · Your CV');
    const activity = screen.getAllByTestId('chart');
    expect(activity[1].compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(api.callsTo('GET /api/admin/summary')).toHaveLength(1);
    const figure = screen.getByRole('figure', { name: 'Where Learners Stall' });
    const table = within(figure).getByRole('table', { name: 'Where Learners Stall: learners per module' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => [...row.children].map((cell) => cell.textContent)),
    ).toEqual([
      ['Module', 'Completed', 'In progress'],
      ['Week 1: Welcome', '6', '2'],
      ['Week 2: Your CV', '2', '4'],
      ['Week 2: Your network', '1', '1'],
    ]);
  });

  it('says so when the program has no modules', async () => {
    mockFetch({ 'GET /api/admin/summary': { body: summary({ funnel: [] }) } });
    renderAt('/admin/dashboard', <AdminDashboardView />);
    expect(await screen.findByText('No modules yet.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Learners who reached each module, of those who started' })).toBeNull();
  });
});

describe('chart formatting', () => {
  it('labels days as short month and day', () => {
    expect(shortMonthDay('2025-11-23')).toBe('Nov 23');
    expect(shortMonthDay('2026-01-05')).toBe('Jan 5');
  });

  it('uses whole-number y ticks covering the highest count', () => {
    expect(integerTicks(0)).toEqual([0, 1]);
    expect(integerTicks(3)).toEqual([0, 1, 2, 3]);
    const ticks = integerTicks(23);
    expect(ticks.every(Number.isInteger)).toBe(true);
    expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(23);
  });
});
