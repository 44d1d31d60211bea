import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { meQueryOptions, type SessionUser } from '@/lib/auth';
import { mockFetch } from '@/testing/mock-api';
import { NotificationPreferences } from './notification-preferences';

type Answer = { status: number; body: unknown };

/**
 * API mock: the first GET answers `get`; later GETs (refetches after a save) never answer, so
 * what the radios show afterwards comes from the component's own handling. Each POST waits until
 * the test settles it.
 */
function stubApi(get: Answer) {
  const posts: Array<{ body: unknown; settle: (answer: Answer) => void }> = [];
  let gets = 0;
  mockFetch(
    {
      'GET /api/settings/notifications': () => (gets++ === 0 ? get : new Promise<Answer>(() => {})),
      'POST /api/settings/notifications': ({ body }) => new Promise<Answer>((settle) => posts.push({ body, settle })),
    },
    { unlisted: 'error' },
  );
  return posts;
}

function renderPreferences() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const user: SessionUser = {
    id: 'u1',
    email: 'ada@example.com',
    first_name: 'Ada',
    last_name: 'L',
    name: 'Ada L',
    role: 'learner',
    verified: true,
  };
  client.setQueryData(meQueryOptions().queryKey, user);
  render(
    <QueryClientProvider client={client}>
      <NotificationPreferences />
    </QueryClientProvider>,
  );
}

const radio = (name: string) => screen.getByRole<HTMLInputElement>('radio', { name: new RegExp(`^${name}`) });

describe('NotificationPreferences', () => {
  it('shows the saved choice and where reminders go', async () => {
    stubApi({ status: 200, body: { reminder_frequency: 'weekly' } });
    renderPreferences();
    expect(screen.getByRole('heading', { name: 'Notification preferences' })).toBeInTheDocument();
    await waitFor(() => expect(radio('Weekly').checked).toBe(true));
    expect(radio('Daily').checked).toBe(false);
    expect(screen.getByText(/primary account email/).textContent).toContain('ada@example.com');
  });

  it('applies a change at once and confirms it', async () => {
    const posts = stubApi({ status: 200, body: { reminder_frequency: 'daily' } });
    renderPreferences();
    await waitFor(() => expect(radio('Daily').checked).toBe(true));

    await userEvent.click(radio('Weekly'));
    // Optimistic: checked before the server has answered.
    expect(radio('Weekly').checked).toBe(true);
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).toEqual({ reminder_frequency: 'weekly' });
    expect(screen.queryByText('Preferences updated.')).toBeNull();

    posts[0].settle({ status: 200, body: { reminder_frequency: 'weekly' } });
    expect(await screen.findByText('Preferences updated.')).toBeInTheDocument();
  });

  it('offers Off, which turns reminder emails off (kept by the same call) and shows when it is the saved choice', async () => {
    const posts = stubApi({ status: 200, body: { reminder_frequency: 'daily' } });
    renderPreferences();
    await waitFor(() => expect(radio('Daily').checked).toBe(true));
    expect(screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['daily', 'weekly', 'off']);
    expect(radio('Off').closest('label')?.textContent).toContain('No reminder emails.');

    await userEvent.click(radio('Off'));
    expect(radio('Off').checked).toBe(true);
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).toEqual({ reminder_frequency: 'off' });
    posts[0].settle({ status: 200, body: { reminder_frequency: 'off' } });
    expect(await screen.findByText('Preferences updated.')).toBeTruthy();
    expect(radio('Daily').checked).toBe(false);
  });

  it('shows the time zone of the reminders and saves another one on its own', async () => {
    const posts = stubApi({ status: 200, body: { reminder_frequency: 'daily', time_zone: 'UTC' } });
    renderPreferences();
    const zone = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Time zone' });
    expect(zone.value).toBe('UTC');
    expect(screen.getByText('Reminders arrive at about 9:00 in the morning in this time zone.')).toBeInTheDocument();

    await userEvent.selectOptions(zone, 'Asia/Tokyo');
    expect(zone.value).toBe('Asia/Tokyo');
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).toEqual({ time_zone: 'Asia/Tokyo' });
    posts[0].settle({ status: 200, body: { reminder_frequency: 'daily', time_zone: 'Asia/Tokyo' } });
    expect(await screen.findByText('Preferences updated.')).toBeInTheDocument();
    expect(radio('Daily').checked).toBe(true);
  });

  it('shows Off as the saved choice after an unsubscribe', async () => {
    stubApi({ status: 200, body: { reminder_frequency: 'off' } });
    renderPreferences();
    await waitFor(() => expect(radio('Off').checked).toBe(true));
    expect(radio('Daily').checked).toBe(false);
    expect(radio('Weekly').checked).toBe(false);
  });

  it('shows paused reminders with a button that resumes them, and nothing of it when they are not paused', async () => {
    const posts = stubApi({ status: 200, body: { reminder_frequency: 'daily', time_zone: 'UTC', reminders_paused: true } });
    renderPreferences();
    expect(await screen.findByText("Reminders are paused: you haven't been active for 4 weeks.")).toBeInTheDocument();
    expect(radio('Daily').checked).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Resume reminders' }));
    // Optimistic: the paused note goes before the server has answered.
    expect(screen.queryByText(/Reminders are paused/)).toBeNull();
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).toEqual({ resume: true });
    posts[0].settle({ status: 200, body: { reminder_frequency: 'daily', time_zone: 'UTC', reminders_paused: false } });
    expect(await screen.findByText('Preferences updated.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resume reminders' })).toBeNull();
  });

  it('reverts and says so when the update fails', async () => {
    const posts = stubApi({ status: 200, body: { reminder_frequency: 'daily' } });
    renderPreferences();
    await waitFor(() => expect(radio('Daily').checked).toBe(true));

    await userEvent.click(radio('Weekly'));
    expect(radio('Weekly').checked).toBe(true);
    await waitFor(() => expect(posts).toHaveLength(1));
    posts[0].settle({ status: 500, body: { error: 'internal_error' } });

    expect((await screen.findByRole('alert')).textContent).toBe('Unable to update notification preferences.');
    expect(radio('Daily').checked).toBe(true);
    expect(radio('Weekly').checked).toBe(false);
    expect(screen.queryByText('Preferences updated.')).toBeNull();
  });

  it('says when the preferences cannot be loaded', async () => {
    stubApi({ status: 500, body: { error: 'internal_error' } });
    renderPreferences();
    expect((await screen.findByRole('alert')).textContent).toBe('Unable to load notification preferences.');
    expect(screen.queryByRole('radio')).toBeNull();
  });
});
