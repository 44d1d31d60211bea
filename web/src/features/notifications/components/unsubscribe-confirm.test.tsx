import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/mock-api';
import { UnsubscribeConfirm } from './unsubscribe-confirm';

type Answer = { status: number; body: unknown };

/** API mock: records each call; every POST waits until the test settles it. */
function stubApi() {
  const calls: Array<{ url: string; method: string; body: unknown; settle: (answer: Answer) => void }> = [];
  mockFetch(
    {
      'POST /api/notifications/unsubscribe': ({ url, method, body }) =>
        new Promise<Answer>((settle) => calls.push({ url, method, body, settle })),
    },
    { unlisted: 'error' },
  );
  return calls;
}

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

describe('UnsubscribeConfirm', () => {
  it('changes nothing until the one button is pressed, then posts the one-click body with the token', async () => {
    const calls = stubApi();
    renderPage('a.b/c+d');
    expect(screen.getByRole('heading', { name: 'Reminder emails' })).toBeTruthy();
    expect(calls).toHaveLength(0); // opening the page (what a mail scanner does) sends nothing

    await userEvent.click(screen.getByRole('button', { name: 'Stop these reminders' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      url: '/api/notifications/unsubscribe?token=a.b%2Fc%2Bd',
      method: 'POST',
      body: { 'List-Unsubscribe': 'One-Click' },
    });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Stopping…' }).disabled).toBe(true);

    calls[0].settle({ status: 200, body: { reminder_frequency: 'off' } });
    expect((await screen.findByRole('status')).textContent).toContain('Reminders stopped. You will get no more reminder emails.');
    expect(screen.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/settings');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says when the link is not valid (tampered token) and lets the learner try again otherwise', async () => {
    const calls = stubApi();
    renderPage('tampered');
    await userEvent.click(screen.getByRole('button', { name: 'Stop these reminders' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    calls[0].settle({ status: 400, body: { error: 'invalid_token' } });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This unsubscribe link is not valid. You can turn reminders off in Settings.',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Stop these reminders' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    calls[1].settle({ status: 503, body: { error: 'unavailable' } });
    expect((await screen.findByRole('alert')).textContent).toBe('Unable to stop the reminders. Please try again.');
  });

  it('without a token offers no button', () => {
    const calls = stubApi();
    renderPage(null);
    expect(screen.getByRole('alert').textContent).toContain('This unsubscribe link is not valid.');
    expect(screen.queryByRole('button')).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
