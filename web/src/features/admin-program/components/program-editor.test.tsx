import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { ContentModuleJson, ProgramContentJson, ProgramDraft } from '@shared/program-authoring';
import { mockFetch, type FetchCall } from '@/testing/mock-api';
import { ProgramPage } from './program-page';

const module = (id: string, position: number): ContentModuleJson => ({
  module_id: id,
  slug: id,
  position,
  title: `Module ${id}`,
  summary: `Summary ${id}`,
  sections: [{ heading: 'Intro', body: [`Reading of ${id}`] }],
  tasks: [{ task_id: 'task-1', type: 'checkbox', label: 'Done it', hint: '', required: true }],
});
const content = (): ProgramContentJson => ({
  program_id: 'career',
  title: 'Career program',
  description: 'Four weeks.',
  weeks: [
    { week_number: 1, title: 'Week one', summary: 'Start.', modules: [module('a', 1), module('b', 2)] },
    { week_number: 2, title: 'Week two', summary: 'Go on.', modules: [module('c', 1)] },
  ],
});
const draftOf = (revision: number, body: ProgramContentJson, email = 'admin@example.com'): ProgramDraft => ({
  revision,
  content: body,
  published_version: 2,
  based_on_version: 2,
  updated_at: '2026-12-01T10:00:00Z',
  updated_by: { id: email, email },
  changes: { program: [], modules: [] },
});
const versions = {
  versions: [
    {
      version: 1,
      change_note: 'First',
      published_at: '2026-11-01T10:00:00Z',
      published_by: null,
      restored_from: null,
      module_count: 3,
    },
  ],
  published_version: 2,
  next_before: null,
};
const me = {
  id: 'admin-1',
  email: 'admin@example.com',
  first_name: 'Ada',
  last_name: 'Admin',
  name: 'Ada Admin',
  role: 'admin',
  verified: true,
};

function Location() {
  return <p data-testid="location">{useLocation().pathname}</p>;
}

/** The editor inside the declarative router the app uses, with a link away from it; a fresh query cache each time, as a reload gives. */
function renderEditor() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/admin/program']}>
        <Link to="/admin/audit">Audit</Link>
        <Location />
        <Routes>
          <Route path="/admin/program" element={<ProgramPage renderModule={(page) => <p>{`Preview of ${page.module.title}`}</p>} />} />
          <Route path="/admin/audit" element={<p>Audit page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...view, queryClient };
}

/** A server whose draft a test can change between calls (another administrator saving). */
function server(initial: ProgramDraft, extra: Parameters<typeof mockFetch>[0] = {}) {
  const state = { draft: initial };
  const api = mockFetch({
    'GET /api/auth/me': { body: me },
    'GET /api/admin/program/draft': () => ({ body: state.draft }),
    'GET /api/admin/program/versions': { body: versions },
    'PUT /api/admin/program/draft': (call: FetchCall) => {
      const sent = call.body as { revision: number; content: ProgramContentJson };
      if (sent.revision !== state.draft.revision)
        return { status: 409, body: { error: 'draft_conflict', message: 'Someone changed the draft meanwhile; nothing was written.' } };
      state.draft = draftOf(sent.revision + 1, sent.content);
      return { body: state.draft };
    },
    ...extra,
  });
  return { state, api };
}

const titleField = () => screen.getByLabelText<HTMLInputElement>('Title', { selector: 'input' });
const editTitle = async (user: ReturnType<typeof userEvent.setup>, text: string) => {
  await user.clear(titleField());
  await user.type(titleField(), text);
};

describe('the program editor keeps the author’s work', () => {
  it('keeps unsaved edits in this browser and offers them back after a reload: Restore brings them back and saves them', async () => {
    const { api } = server(draftOf(3, content()));
    const user = userEvent.setup();
    const first = renderEditor();
    await screen.findByRole('heading', { name: 'Edit: Module a' });
    await editTitle(user, 'My new title');
    first.unmount(); // the tab reloads

    renderEditor();
    expect(await screen.findByRole('heading', { name: /^You have unsaved edits from .+/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    expect(titleField().value).toBe('My new title');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('Draft saved.');
    const saved = api.callsTo('PUT /api/admin/program/draft').at(-1)?.body as { revision: number; content: ProgramContentJson };
    expect(saved.revision).toBe(3);
    expect(saved.content.weeks[0].modules[0].title).toBe('My new title');
    // saved: the browser's copy is forgotten (after the render that shows it saved)
    await waitFor(() => expect(localStorage.getItem('career.program-edits.admin-1')).toBeNull());
  });

  it('keeps the edits under the administrator’s id and forgets them on Discard', async () => {
    server(draftOf(3, content()));
    const user = userEvent.setup();
    const first = renderEditor();
    await screen.findByRole('heading', { name: 'Edit: Module a' });
    await editTitle(user, 'Not wanted');
    first.unmount();
    expect(Object.keys(localStorage).filter((key) => key.startsWith('career.program-edits.'))).toEqual(['career.program-edits.admin-1']);

    renderEditor();
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(titleField().value).toBe('Module a');
    expect(localStorage.getItem('career.program-edits.admin-1')).toBeNull();
    // nothing unsaved: leaving asks nothing
    await user.click(screen.getByRole('link', { name: 'Audit' }));
    expect(await screen.findByText('Audit page')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks before an in-app navigation leaves unsaved edits, and the tab asks before closing', async () => {
    server(draftOf(3, content()));
    const user = userEvent.setup();
    renderEditor();
    await screen.findByRole('heading', { name: 'Edit: Module a' });
    const unload = () => window.dispatchEvent(new Event('beforeunload', { cancelable: true }));
    expect(unload()).toBe(true); // nothing to lose: no question

    await editTitle(user, 'Half written');
    expect(unload()).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Audit' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave with unsaved edits?' });
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/program');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Stay and keep editing' }));
    await user.click(within(dialog).getByRole('button', { name: 'Stay and keep editing' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(titleField().value).toBe('Half written');

    await user.click(screen.getByRole('link', { name: 'Audit' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('Audit page')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/audit');
    expect(unload()).toBe(true);
  });

  it('asks before "Restore version N" replaces the draft, and Undo puts back the saved draft and the unsaved edits', async () => {
    const restored = content();
    restored.weeks[0].modules[0].title = 'Old title';
    const { state, api } = server(draftOf(3, content()), {
      'POST /api/admin/program/versions/1/restore': (call: FetchCall) => {
        if ((call.body as { revision: number }).revision !== state.draft.revision)
          return { status: 409, body: { error: 'draft_conflict' } };
        state.draft = draftOf(state.draft.revision + 1, restored);
        return { body: state.draft };
      },
    });
    const user = userEvent.setup();
    renderEditor();
    await screen.findByRole('heading', { name: 'Edit: Module a' });
    await editTitle(user, 'Unsaved title');

    await user.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    const confirm = screen.getByRole('group', { name: 'Restore version 1?' });
    expect(confirm).toHaveTextContent("The current draft's unsaved and saved edits will be replaced.");
    expect(api.callsTo('POST /api/admin/program/versions/1/restore')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Replace the draft' }));
    await screen.findByText('Version 1 restored as the draft.');
    expect(titleField().value).toBe('Old title');

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText('Undone: the draft is back as it was.');
    // the saved draft is saved again, over the restored one …
    expect(api.callsTo('PUT /api/admin/program/draft').at(-1)?.body).toEqual({ revision: 4, content: content() });
    expect(state.draft.revision).toBe(5);
    // … and the unsaved edit is back, still unsaved
    expect(titleField().value).toBe('Unsaved title');
    expect(screen.getByRole('button', { name: 'Save draft' })).toBeEnabled();
  });

  it('Cancel on the restore question changes nothing', async () => {
    const { api } = server(draftOf(3, content()));
    const user = userEvent.setup();
    renderEditor();
    await user.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    await user.click(within(screen.getByRole('group', { name: 'Restore version 1?' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: 'Restore version 1?' })).toBeNull();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('on a save conflict keeps the edits, shows "Your changes" and "Their changes" apart, and applies mine on top of theirs', async () => {
    const { state, api } = server(draftOf(3, content()));
    const user = userEvent.setup();
    renderEditor();
    await screen.findByRole('heading', { name: 'Edit: Module a' });
    await editTitle(user, 'My title');
    // meanwhile another administrator edits another module's summary
    const theirs = content();
    theirs.weeks[1].modules[0].summary = 'Their summary';
    state.draft = draftOf(4, theirs, 'other@example.com');

    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    const yours = await screen.findByRole('region', { name: 'Your changes' });
    expect(
      within(yours)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['My title: edited (title)']);
    const their = screen.getByRole('region', { name: 'Their changes' });
    expect(
      within(their)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Module c: edited (summary)']);
    expect(screen.getByRole('alert')).toHaveTextContent('other@example.com saved the draft');
    expect(document.body.textContent).not.toMatch(/reload/i);
    expect(titleField().value).toBe('My title');

    await user.click(screen.getByRole('button', { name: 'Apply mine on top of theirs' }));
    expect(screen.queryByRole('region', { name: 'Your changes' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByText('Draft saved.');
    const saved = api.callsTo('PUT /api/admin/program/draft').at(-1)?.body as { revision: number; content: ProgramContentJson };
    expect(saved.revision).toBe(4);
    expect(saved.content.weeks[0].modules[0].title).toBe('My title');
    expect(saved.content.weeks[1].modules[0].summary).toBe('Their summary');
  });

  it('offers kept edits back over a draft someone saved since, with both sides shown', async () => {
    const { state } = server(draftOf(3, content()));
    const user = userEvent.setup();
    const first = renderEditor();
    await screen.findByRole('heading', { name: 'Edit: Module a' });
    await editTitle(user, 'Kept title');
    first.unmount();
    const theirs = content();
    theirs.title = 'Their program title';
    state.draft = draftOf(4, theirs, 'other@example.com');

    renderEditor();
    await user.click(await screen.findByRole('button', { name: 'Restore' }));
    expect(titleField().value).toBe('Kept title');
    expect(within(screen.getByRole('region', { name: 'Their changes' })).getByText('Program: title')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Apply mine on top of theirs' }));
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(state.draft.revision).toBe(5));
    expect(state.draft.content.title).toBe('Their program title');
    expect(state.draft.content.weeks[0].modules[0].title).toBe('Kept title');
  });

  it('leaves the edits another tab of the same administrator keeps alone', async () => {
    const { state } = server(draftOf(3, content()));
    const { queryClient } = renderEditor();
    await screen.findByRole('heading', { name: 'Edit: Module a' });
    const otherTab = JSON.stringify({
      revision: 3,
      base: content(),
      content: { ...content(), title: 'Other tab' },
      kept_at: '2026-12-01T11:00:00Z',
    });
    localStorage.setItem('career.program-edits.admin-1', otherTab);
    // this tab, with nothing unsaved, takes a newer draft from the server
    const newer = content();
    newer.description = 'Published meanwhile.';
    state.draft = draftOf(4, newer);
    await queryClient.invalidateQueries();
    await waitFor(() => expect(screen.getByText(/Draft revision 4/)).toBeInTheDocument());
    expect(localStorage.getItem('career.program-edits.admin-1')).toBe(otherTab);
  });
});
