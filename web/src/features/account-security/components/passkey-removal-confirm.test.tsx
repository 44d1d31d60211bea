import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '@/testing/mock-api';
import { PasskeyRemovalConfirm } from './passkey-removal-confirm';

type Answer = { status: number; body: unknown };
const BUTTON = 'Remove the passkey and sign out everywhere';

/** API mock: records each call; every POST waits until the test settles it. */
function stubApi() {
  const calls: Array<{ url: string; body: unknown; settle: (answer: Answer) => void }> = [];
  mockFetch(
    {
      'POST /api/auth/passkeys/removal': ({ url, body }) => new Promise<Answer>((settle) => calls.push({ url, body, settle })),
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
        <PasskeyRemovalConfirm token={token} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('PasskeyRemovalConfirm', () => {
  it('changes nothing until the one button is pressed, then posts the token and confirms', async () => {
    const calls = stubApi();
    renderPage('a.b-c');
    expect(screen.getByRole('heading', { name: 'Remove a passkey' })).toBeTruthy();
    expect(calls).toHaveLength(0); // opening the page (what a mail scanner does) sends nothing

    await userEvent.click(screen.getByRole('button', { name: BUTTON }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ url: '/api/auth/passkeys/removal', body: { token: 'a.b-c' } });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Removing…' }).disabled).toBe(true);

    calls[0].settle({ status: 200, body: { ok: true } });
    expect((await screen.findByRole('status')).textContent).toContain(
      'The passkey was removed and every session of your account was signed out.',
    );
    expect(screen.getByRole('link', { name: 'reset your password' }).getAttribute('href')).toBe('/forgot-password');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says when the link is not valid or the passkey is already gone, and lets the person try again otherwise', async () => {
    const calls = stubApi();
    renderPage('tampered');
    await userEvent.click(screen.getByRole('button', { name: BUTTON }));
    await waitFor(() => expect(calls).toHaveLength(1));
    calls[0].settle({ status: 400, body: { error: 'invalid_token' } });
    expect((await screen.findByRole('alert')).textContent).toContain('This link is not valid or has expired.');

    await userEvent.click(screen.getByRole('button', { name: BUTTON }));
    await waitFor(() => expect(calls).toHaveLength(2));
    calls[1].settle({ status: 404, body: { error: 'passkey_not_found' } });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('This passkey was already removed.'));

    await userEvent.click(screen.getByRole('button', { name: BUTTON }));
    await waitFor(() => expect(calls).toHaveLength(3));
    calls[2].settle({ status: 503, body: { error: 'unavailable' } });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Unable to remove the passkey. Please try again.'));
  });

  it('without a token offers no button', () => {
    const calls = stubApi();
    renderPage(null);
    expect(screen.getByRole('alert').textContent).toContain('This link is not valid or has expired.');
    expect(screen.queryByRole('button')).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
