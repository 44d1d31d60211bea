import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModulePage, TaskSave } from '@shared/program-types';
import { callsTo, mockApi, renderRoute, type MockAnswer } from '../testing/test-utils';
import { ModuleView } from './module-view';

function modulePage(): ModulePage {
  return {
    module: {
      module_id: 'm2',
      slug: 'your-story',
      title: 'Your story',
      summary: 'Tell it in two minutes.',
      week_number: 1,
      week_title: 'Foundations',
      position: 2,
      state: 'open',
      sections: [{ heading: 'Why it matters', body: 'Recruiters skim.\nMake it count.\n\n- Be brief\n- Be concrete' }],
      tasks: [
        { task_id: 't1', type: 'checkbox', label: 'Watch the talk', hint: '10 minutes', required: true, done: false, updated_at: null },
        { task_id: 't2', type: 'text', label: 'Draft your pitch', hint: '', required: false, done: false, answer: '', updated_at: null },
      ],
    },
    next_module: { slug: 'networking', title: 'Networking', week_number: 2 },
    percent_complete: 20,
    program_title: '4-Week Career Program',
  };
}

/** A tiny stateful server for one module: GET reflects what PUTs saved. */
function moduleServer(
  onPut?: (taskId: string, body: { done?: boolean; answer?: string }) => MockAnswer | undefined | Promise<MockAnswer | undefined>,
  { answerRefetches = true } = {},
) {
  const page = modulePage();
  let gets = 0;
  const put =
    (taskId: string) =>
    async (body: unknown): Promise<MockAnswer> => {
      const change = body as { done?: boolean; answer?: string };
      const custom = await onPut?.(taskId, change);
      if (custom) return custom;
      const task = page.module.tasks.find((t) => t.task_id === taskId)!;
      Object.assign(task, change, change.answer !== undefined ? { done: change.answer.trim() !== '' } : {});
      const completed = page.module.tasks.every((t) => !t.required || t.done);
      const completedNow = completed && page.module.state !== 'completed';
      if (completed) page.module.state = 'completed';
      if (completedNow) page.percent_complete = 30;
      const result: TaskSave = {
        task,
        module_id: page.module.module_id,
        slug: page.module.slug,
        module_state: page.module.state,
        completed_now: completedNow,
        percent_complete: page.percent_complete,
        next_module: page.next_module,
        open_module: null,
      };
      return { body: result };
    };
  const fetchMock = mockApi({
    // With answerRefetches off, refetches never answer: what shows comes from the page itself.
    'GET /api/modules/your-story': () =>
      gets++ === 0 || answerRefetches ? { body: structuredClone(page) } : new Promise<MockAnswer>(() => {}),
    'PUT /api/modules/your-story/tasks/t1': put('t1'),
    'PUT /api/modules/your-story/tasks/t2': put('t2'),
    'GET /api/dashboard': () => ({ body: { percent_complete: page.percent_complete, program_title: 'P' } }),
    'GET /api/dashboard/state': () => ({ body: { grid: [], open_module: null, percent_complete: page.percent_complete } }),
    'GET /api/auth/me': () => ({ status: 401, body: {} }),
  });
  return { page, fetchMock };
}

const renderModule = (slug = 'your-story') =>
  renderRoute(<ModuleView slug={slug} />, { path: `/modules/${slug}`, pattern: '/modules/:slug' });

afterEach(() => vi.unstubAllGlobals());

describe('ModuleView', () => {
  it('shows the module: breadcrumb, label, sections, tasks and progress', async () => {
    moduleServer();
    renderModule();
    expect(await screen.findByRole('heading', { level: 1, name: 'Your story' })).toBeInTheDocument();
    expect(screen.getByText('Week 1 • Module 2')).toBeInTheDocument();
    expect(screen.getByText('Tell it in two minutes.')).toBeInTheDocument();
    expect(
      within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
        .getByRole('link', { name: 'Dashboard' })
        .getAttribute('href'),
    ).toBe('/dashboard');
    expect(screen.getByText('Recruiters skim. Make it count.').tagName).toBe('P');
    expect(screen.getByText('Be concrete').tagName).toBe('LI');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('20');
    expect(screen.getByText('20.0% complete')).toBeInTheDocument();
    const checkbox = screen.getByRole('checkbox', { name: /Watch the talk/ });
    expect(checkbox.closest('li')!.textContent).toContain('Required');
    expect(screen.getByRole('textbox', { name: /Draft your pitch/ }).closest('li')!.textContent).not.toContain('Required');
    expect(screen.getByText('0 of 1 required tasks done')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Module complete!' })).toBeNull();
  });

  it('saves a checkbox on change and, on completing the module, offers the next one', async () => {
    const { fetchMock } = moduleServer();
    renderModule();
    const checkbox = await screen.findByRole<HTMLInputElement>('checkbox', { name: /Watch the talk/ });
    await userEvent.click(checkbox);
    expect(checkbox.checked).toBe(true);
    await waitFor(() => expect(callsTo(fetchMock, 'PUT /api/modules/your-story/tasks/t1')).toEqual([{ done: true }]));

    const panelHeading = await screen.findByRole('heading', { name: 'Module complete!' });
    const panel = panelHeading.closest('section')!;
    expect(within(panel).getByRole('link', { name: 'Continue to next module' }).getAttribute('href')).toBe('/modules/networking');
    expect(within(panel).getByText(/Networking/)).toBeInTheDocument();
    expect(document.activeElement).toBe(panelHeading);
    expect(await screen.findByText('30.0% complete')).toBeInTheDocument();
    expect(screen.getByText('1 of 1 required tasks done')).toBeInTheDocument();
  });

  it('points back to the dashboard when the last module is completed', async () => {
    const { page } = moduleServer();
    page.next_module = null;
    renderModule();
    await userEvent.click(await screen.findByRole('checkbox', { name: /Watch the talk/ }));
    const panel = (await screen.findByRole('heading', { name: 'Module complete!' })).closest('section')!;
    expect(within(panel).getByRole('link', { name: 'Back to dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(within(panel).queryByRole('link', { name: 'Continue to next module' })).toBeNull();
  });

  it('ticks a checkbox at once (optimistic), then reverts it when the save fails and says so', async () => {
    let fail!: () => void;
    moduleServer(() => new Promise<MockAnswer>((resolve) => (fail = () => resolve({ status: 500, body: { error: 'internal_error' } }))), {
      answerRefetches: false,
    });
    renderModule();
    const checkbox = await screen.findByRole<HTMLInputElement>('checkbox', { name: /Watch the talk/ });
    await userEvent.click(checkbox);
    // the server has not answered yet: the box already shows the change
    await waitFor(() => expect(fail).toBeTypeOf('function'));
    expect(checkbox.checked).toBe(true);
    expect(screen.getByText('Saving…')).toBeInTheDocument();
    fail();
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(checkbox.checked).toBe(false);
    expect(screen.queryByRole('heading', { name: 'Module complete!' })).toBeNull();
  });

  it('shows a time estimate and a Jump to tasks link', async () => {
    moduleServer();
    renderModule();
    // 1 checkbox (5 min) + 1 written task (10 min) + a short read: rounded up to 20.
    expect(await screen.findByText('About 20 min')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Jump to tasks' }).getAttribute('href')).toBe('#tasks-title');
    expect(document.getElementById('tasks-title')?.textContent).toBe('Your tasks');
  });

  it('counts a list task against its minimum, as a hint that never blocks saving', async () => {
    const { page, fetchMock } = moduleServer();
    page.module.tasks[1].label = 'List at least three achievements.';
    renderModule();
    const box = await screen.findByRole('textbox', { name: /List at least three achievements/ });
    expect(screen.getByText('0 of 3 listed, one per line. Add 3 more to meet what this task asks for.')).toBeInTheDocument();
    await userEvent.type(box, '- led the migration{enter}- cut costs');
    expect(screen.getByText('2 of 3 listed, one per line. Add 1 more to meet what this task asks for.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT /api/modules/your-story/tasks/t2')).toHaveLength(1);
    await userEvent.type(box, '{enter}hired two people');
    expect(screen.getByText('3 listed: that meets the 3 this task asks for.')).toBeInTheDocument();
  });

  it('saves a written answer with Save, and on blur', async () => {
    const { fetchMock } = moduleServer();
    renderModule();
    const box = await screen.findByRole('textbox', { name: /Draft your pitch/ });
    await userEvent.type(box, 'I build things.');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    // The blur that came with clicking Save must not have sent it twice.
    expect(callsTo(fetchMock, 'PUT /api/modules/your-story/tasks/t2')).toEqual([{ answer: 'I build things.' }]);

    await userEvent.type(box, ' Fast.');
    await userEvent.tab();
    await waitFor(() => expect(callsTo(fetchMock, 'PUT /api/modules/your-story/tasks/t2')).toHaveLength(2));
    expect(callsTo(fetchMock, 'PUT /api/modules/your-story/tasks/t2')[1]).toEqual({ answer: 'I build things. Fast.' });
  });

  it('keeps the typed text when a save fails and lets the learner retry', async () => {
    let failures = 1;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    moduleServer(async () => {
      await gate;
      return failures-- > 0 ? { status: 503, body: { error: 'unavailable' } } : undefined;
    });
    renderModule();
    const box = await screen.findByRole<HTMLTextAreaElement>('textbox', { name: /Draft your pitch/ });
    await userEvent.type(box, 'My pitch');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saving…')).toBeInTheDocument();
    release();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your text is kept here.');
    expect(box.value).toBe('My pitch');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(box.value).toBe('My pitch');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('explains a locked module and links to what to finish first', async () => {
    mockApi({
      'GET /api/modules/networking': () => ({
        status: 403,
        body: { error: 'module_locked', requires: { slug: 'your-story', title: 'Your story' } },
      }),
    });
    renderModule('networking');
    expect(await screen.findByRole('heading', { name: 'This module is locked' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your story' }).getAttribute('href')).toBe('/modules/your-story');
    expect(screen.getByRole('link', { name: 'Back to dashboard' }).getAttribute('href')).toBe('/dashboard');
    // The lock is an SVG (every system draws it), hidden from assistive technology; no emoji.
    const icon = document.querySelector('.pg-status-card__icon');
    expect(icon?.querySelector('svg')).toBeTruthy();
    expect(icon?.getAttribute('aria-hidden')).toBe('true');
    expect(icon?.textContent).not.toContain('🔒');
  });

  it('says when a module does not exist', async () => {
    mockApi({ 'GET /api/modules/nope': () => ({ status: 404, body: { error: 'not_found' } }) });
    renderModule('nope');
    expect(await screen.findByRole('heading', { name: 'Module not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it('sends a learner who is not enrolled to /enroll, and a signed-out one to /login', async () => {
    mockApi({ 'GET /api/modules/your-story': () => ({ status: 404, body: { error: 'not_enrolled' } }) });
    const first = renderModule();
    expect(await screen.findByRole('heading', { name: 'Enroll page' })).toBeInTheDocument();
    first.unmount();

    mockApi({ 'GET /api/modules/your-story': () => ({ status: 401, body: { error: 'unauthorized' } }) });
    renderModule();
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeInTheDocument();
  });
});
