import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ReminderFrequency } from '@shared/program-types';
import { mockFetch, type FetchCall, type Reply } from '@/testing/mock-api';
import { UnsubscribeConfirm } from './unsubscribe-confirm';

/** API mock: the GET answers `current`; every POST is recorded and waits until the test settles it. */
function stubApi(current: Reply) {
  const reads: FetchCall[] = [];
  const posts: Array<FetchCall & { settle: (answer: Reply) => void }> = [];
  const pending = (call: FetchCall) => new Promise<Reply>((settle) => posts.push({ ...call, settle }));
  mockFetch(
    {
      'GET /api/notifications/subscription': (call) => {
        reads.push(call);
        return current;
      },
      'POST /api/notifications/unsubscribe': pending,
      'POST /api/notifications/subscription': pending,
    },
    { unlisted: 'error' },
  );
  return { reads, posts };
}

const subscribed = (reminder_frequency: ReminderFrequency): Reply => ({
  body: { email: 'una@example.com', reminder_frequency },
});

function renderPage(token: string | null) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <UnsubscribeConfirm token={token} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const buttonNames = () => screen.queryAllByRole('button').map((button) => button.textContent);

describe('UnsubscribeConfirm', () => {
  it('shows the address and frequency, changes nothing until a button is pressed, then posts the one-click body', async () => {
    const { reads, posts } = stubApi(subscribed('daily'));
    renderPage('a.b/c+d');
    expect(screen.getByRole('heading', { name: 'Reminder emails' })).toBeTruthy();
    expect((await screen.findByText('una@example.com')).closest('p')!.textContent).toBe('Reminders go to una@example.com.');
    expect(screen.getByText('You get a reminder every day.')).toBeTruthy();
    expect(reads.map((call) => call.url)).toEqual(['/api/notifications/subscription?token=a.b%2Fc%2Bd']);
    expect(buttonNames()).toEqual(['Stop these reminders', 'Weekly instead']);
    expect(posts).toHaveLength(0); // opening the page (what a mail scanner does) changes nothing

    await userEvent.click(screen.getByRole('button', { name: 'Stop these reminders' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({
      url: '/api/notifications/unsubscribe?token=a.b%2Fc%2Bd',
      method: 'POST',
      body: { 'List-Unsubscribe': 'One-Click' },
    });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Stopping…' }).disabled).toBe(true);

    posts[0].settle({ status: 200, body: { reminder_frequency: 'off' } });
    expect((await screen.findByRole('status')).textContent).toBe('Reminders stopped. You will get no more reminder emails.');
    expect(screen.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/settings');
    // stopped: the page offers to resubscribe, daily or weekly
    expect(buttonNames()).toEqual(['Turn reminders back on', 'Weekly reminders']);
  });

  it('offers "weekly instead" and posts it by the same token', async () => {
    const { posts } = stubApi(subscribed('daily'));
    renderPage('tok');
    await userEvent.click(await screen.findByRole('button', { name: 'Weekly instead' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ url: '/api/notifications/subscription?token=tok', body: { reminder_frequency: 'weekly' } });
    posts[0].settle({ status: 200, body: { reminder_frequency: 'weekly' } });
    expect((await screen.findByRole('status')).textContent).toBe('Done: from now on you get one reminder a week.');
    expect(buttonNames()).toEqual(['Stop these reminders', 'Daily instead']);
  });

  it('says when reminders are paused (the paused email links here) and resumes them at the frequency the learner had', async () => {
    const { posts } = stubApi({ body: { email: 'una@example.com', reminder_frequency: 'weekly', reminders_paused: true } });
    renderPage('tok');
    expect(await screen.findByText("Your reminders are paused: you haven't been active for 4 weeks.")).toBeTruthy();
    expect(buttonNames()).toEqual(['Resume reminders', 'Stop these reminders']);
    await userEvent.click(screen.getByRole('button', { name: 'Resume reminders' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ url: '/api/notifications/subscription?token=tok', body: { reminder_frequency: 'weekly' } });
    posts[0].settle({ status: 200, body: { reminder_frequency: 'weekly' } });
    expect((await screen.findByRole('status')).textContent).toBe('Done: from now on you get one reminder a week.');
    expect(buttonNames()).toEqual(['Stop these reminders', 'Daily instead']);
  });

  it('says when reminders are already off and offers to turn them back on', async () => {
    const { posts } = stubApi(subscribed('off'));
    renderPage('tok');
    expect(await screen.findByText('Reminders are already off: you get no reminder emails.')).toBeTruthy();
    expect(screen.queryByText(/Stop the reminder emails/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Turn reminders back on' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ url: '/api/notifications/subscription?token=tok', body: { reminder_frequency: 'daily' } });
    posts[0].settle({ status: 200, body: { reminder_frequency: 'daily' } });
    expect((await screen.findByRole('status')).textContent).toBe('Reminders are back on: you get a reminder every day.');
  });

  it('says when the link is not valid and offers no button', async () => {
    stubApi({ status: 400, body: { error: 'invalid_token' } });
    renderPage('tampered');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This unsubscribe link is not valid. You can turn reminders off in Settings.',
    );
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('keeps the choices after a failed save', async () => {
    const { posts } = stubApi(subscribed('weekly'));
    renderPage('tok');
    await userEvent.click(await screen.findByRole('button', { name: 'Stop these reminders' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    posts[0].settle({ status: 503, body: { error: 'unavailable' } });
    expect((await screen.findByRole('alert')).textContent).toBe('Unable to stop the reminders. Please try again.');
    expect(buttonNames()).toEqual(['Stop these reminders', 'Daily instead']);
  });

  it('without a token offers no button and calls nothing', () => {
    const { reads, posts } = stubApi(subscribed('daily'));
    renderPage(null);
    expect(screen.getByRole('alert').textContent).toContain('This unsubscribe link is not valid.');
    expect(screen.queryByRole('button')).toBeNull();
    expect(reads).toHaveLength(0);
    expect(posts).toHaveLength(0);
  });
});
