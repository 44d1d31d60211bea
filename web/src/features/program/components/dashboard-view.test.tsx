import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DashboardState } from '@shared/program-types';
import { learner, mockApi, renderRoute } from '../testing/test-utils';
import { DashboardView } from './dashboard-view';

const state: DashboardState = {
  percent_complete: 42.46,
  open_module: { module_id: 'm2', title: 'Your story', position: 2, state: 'open', slug: 'your-story', week_number: 1 },
  grid: [
    {
      week_number: 1,
      modules: [
        { module_id: 'm1', title: 'Know your strengths', position: 1, state: 'completed', slug: 'strengths' },
        { module_id: 'm2', title: 'Your story', position: 2, state: 'open', slug: 'your-story' },
      ],
    },
    { week_number: 2, modules: [{ module_id: 'm3', title: 'Networking', position: 1, state: 'locked', slug: 'networking' }] },
  ],
};

const renderDashboard = (user = learner) => renderRoute(<DashboardView />, { path: '/dashboard', user });

afterEach(() => vi.unstubAllGlobals());

describe('DashboardView', () => {
  it('greets, shows progress, the next module and the program grid', async () => {
    mockApi({
      'GET /api/dashboard': () => ({ body: { percent_complete: 142, program_title: '' } }),
      'GET /api/dashboard/state': () => ({ body: state }),
    });
    renderDashboard({ ...learner, first_name: '', name: 'Grace Hopper', verified: false });

    expect(await screen.findByRole('heading', { name: 'Welcome, Grace!' })).toBeInTheDocument();
    expect(screen.getByText('Program: 4-Week Career Program')).toBeInTheDocument();
    // The summary's percent wins and is clamped.
    expect(screen.getByText('100.0% complete')).toBeInTheDocument();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');

    expect(await screen.findByText('Week 1 • Next up: Your story')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Resume your next module' }).getAttribute('href')).toBe('/modules/your-story');

    const progress = screen.getByRole('region', { name: 'Program progress' });
    const week1 = within(progress).getByRole('region', { name: 'Week 1' });
    const [done, open] = within(week1).getAllByRole('listitem');
    expect(within(done).getByText('Module 1 • Completed')).toBeInTheDocument();
    expect(within(done).getByText('Completed', { selector: '.pg-badge' })).toBeInTheDocument();
    expect(within(done).queryByText('Complete required tasks to finish this module.')).toBeNull();
    expect(within(open).getByText('Module 2 • Open')).toBeInTheDocument();
    expect(within(open).getByText('Complete required tasks to finish this module.')).toBeInTheDocument();
    expect(open.querySelector('.pg-badge')).toBeNull();
    const week2 = within(progress).getByRole('region', { name: 'Week 2' });
    expect(within(week2).getByText('Locked', { selector: '.pg-badge' })).toBeInTheDocument();
    expect(within(week2).queryByRole('link')).toBeNull();

    const snapshot = screen.getByRole('region', { name: 'Account snapshot' });
    expect(within(snapshot).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(snapshot).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(snapshot).getByText('Pending verification')).toBeInTheDocument();
    expect(within(snapshot).getByRole('link', { name: 'Manage account settings' }).getAttribute('href')).toBe('/settings');
  });

  it('rounds the percent to one decimal and shows a missing badge state as Locked', async () => {
    mockApi({
      'GET /api/dashboard': () => ({ body: { percent_complete: 33.333, program_title: 'Career Sprint' } }),
      'GET /api/dashboard/state': () => ({
        body: { ...state, grid: [{ week_number: 1, modules: [{ module_id: 'x', title: 'X', position: 1, slug: 'x' }] }] },
      }),
    });
    renderDashboard();
    expect(await screen.findByText('33.3% complete')).toBeInTheDocument();
    expect(screen.getByText('Program: Career Sprint')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
    expect(await screen.findByText('Module 1 • Locked')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Account snapshot' })).getByText('Verified')).toBeInTheDocument();
  });

  it("reads 'All modules completed!' with the certificate as the main action when nothing is open", async () => {
    mockApi({
      'GET /api/dashboard': () => ({ body: { percent_complete: 100, program_title: 'P' } }),
      'GET /api/dashboard/state': () => ({ body: { ...state, open_module: null } }),
    });
    renderDashboard();
    expect(await screen.findByText('All modules completed!')).toBeInTheDocument();
    // the certificate comes first, styled as the main (filled) button; Resume is spent
    const certificate = screen.getByRole('link', { name: 'View your certificate' });
    expect(certificate.getAttribute('href')).toBe('/certificate');
    expect(certificate.className).toBe('pg-button');
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Resume your next module' });
    expect(button.disabled).toBe(true);
    expect(button.className).toContain('pg-button--secondary');
    expect(certificate.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Resume your next module' })).toBeNull();
    // Not a grey button alone: a completion view says what was achieved.
    expect(screen.getByRole('heading', { name: 'You finished the program' })).toBeInTheDocument();
    expect(screen.getByText('A plan for your first 90 days')).toBeInTheDocument();
  });

  it('shows the loading text, then the failure text with a Refresh that retries', async () => {
    let fail = true;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    mockApi({
      'GET /api/dashboard': async () => {
        await gate;
        return fail ? { status: 500, body: { error: 'internal' } } : { body: { percent_complete: 10, program_title: 'P' } };
      },
      'GET /api/dashboard/state': () => ({ body: state }),
    });
    renderDashboard();
    expect(screen.getByText('Loading your dashboard…')).toBeInTheDocument();
    release();
    expect(await screen.findByText('Unable to load your dashboard right now. Please refresh to try again.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('10.0% complete')).toBeInTheDocument();
  });

  it('goes to /enroll on 404', async () => {
    mockApi({
      'GET /api/dashboard': () => ({ status: 404, body: { error: 'not_enrolled' } }),
      'GET /api/dashboard/state': () => ({ status: 404, body: { error: 'not_enrolled' } }),
    });
    renderDashboard();
    expect(await screen.findByRole('heading', { name: 'Enroll page' })).toBeInTheDocument();
  });

  it('goes to /login on 401 and on 403', async () => {
    mockApi({
      'GET /api/dashboard': () => ({ body: { percent_complete: 1, program_title: 'P' } }),
      'GET /api/dashboard/state': () => ({ status: 401, body: { error: 'unauthorized' } }),
    });
    const first = renderDashboard();
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeInTheDocument();
    first.unmount();

    mockApi({
      'GET /api/dashboard': () => ({ status: 403, body: { error: 'forbidden' } }),
      'GET /api/dashboard/state': () => ({ body: state }),
    });
    renderDashboard();
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeInTheDocument();
  });
});
