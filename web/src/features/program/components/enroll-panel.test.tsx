import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ENROLL_REDIRECT_MS, SIGNED_IN_HINT_COOKIE } from '@shared/constants';
import { callsTo, learner, mockApi, renderRoute } from '../testing/test-utils';
import { EnrollPanel } from './enroll-panel';

const flush = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

afterEach(() => {
  document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Path=/; Max-Age=0`;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('EnrollPanel', () => {
  it('enrolls once (even in StrictMode), shows the message, then goes to the dashboard after 1.6 s', async () => {
    vi.useFakeTimers();
    const fetchMock = mockApi({ 'POST /api/enroll': () => ({ body: { message: 'You are in!' } }) });
    renderRoute(<EnrollPanel />, { path: '/enroll', strict: true });

    expect(screen.getByRole('heading', { name: 'Preparing your journey' })).toBeInTheDocument();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Continue to dashboard' }).disabled).toBe(true);

    // The mocked server answers over a few real event-loop turns: wait for the answer 1 ms of fake time at a time.
    await act(() => vi.waitFor(() => expect(screen.getByText('You are in!')).toBeInTheDocument(), { interval: 1 }));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Continue to dashboard' }).disabled).toBe(false);
    expect(callsTo(fetchMock, 'POST /api/enroll')).toHaveLength(1);

    await flush(ENROLL_REDIRECT_MS - 100);
    expect(screen.queryByRole('heading', { name: 'Dashboard page' })).toBeNull();
    await flush(100);
    expect(screen.getByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
  });

  it('uses the default success text when the server sends no message', async () => {
    mockApi({ 'POST /api/enroll': () => ({ body: {} }) });
    renderRoute(<EnrollPanel />, { path: '/enroll' });
    expect(await screen.findByText('Welcome to the 4-Week Career Program!')).toBeInTheDocument();
  });

  it('shows the failure text, stays, and keeps the button usable', async () => {
    vi.useFakeTimers();
    mockApi({ 'POST /api/enroll': () => ({ status: 500, body: { error: 'internal_error' } }) });
    renderRoute(<EnrollPanel />, { path: '/enroll' });
    await flush(10);
    expect(screen.getByRole('alert').textContent).toBe('Unable to enroll in the program.');
    await flush(ENROLL_REDIRECT_MS * 2);
    expect(screen.getByRole('heading', { name: 'Preparing your journey' })).toBeInTheDocument();
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Continue to dashboard' });
    expect(button.disabled).toBe(false);
    await act(() => {
      button.click();
      return Promise.resolve();
    });
    expect(screen.getByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
  });

  it("shows the server's own message when it sends one", async () => {
    mockApi({ 'POST /api/enroll': () => ({ status: 409, body: { error: 'closed', message: 'Enrollment is closed.' } }) });
    renderRoute(<EnrollPanel />, { path: '/enroll' });
    expect((await screen.findByRole('alert')).textContent).toBe('Enrollment is closed.');
  });

  it('never enrolls an admin on arrival: it offers an explicit preview instead', async () => {
    vi.useFakeTimers();
    const admin = { ...learner, role: 'admin' };
    // A signed-in browser holds the hint, so the session refetch after the preview asks the API.
    document.cookie = `${SIGNED_IN_HINT_COOKIE}=1; Path=/`;
    const fetchMock = mockApi({
      'POST /api/enroll': () => ({ body: { message: 'Welcome to the 4-Week Career Program!' } }),
      'GET /api/auth/me': () => ({ body: admin }),
    });
    renderRoute(<EnrollPanel />, { path: '/enroll', user: admin, strict: true });
    await flush(50);
    expect(callsTo(fetchMock, 'POST /api/enroll')).toHaveLength(0);
    expect(screen.getByRole('heading', { name: 'Preparing your journey' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the admin dashboard' }).getAttribute('href')).toBe('/admin/dashboard');

    await act(() => {
      screen.getByRole('button', { name: 'Preview the program as a learner' }).click();
      return Promise.resolve();
    });
    await act(() =>
      vi.waitFor(() => expect(screen.getByText('Welcome to the 4-Week Career Program!')).toBeInTheDocument(), { interval: 1 }),
    );
    expect(callsTo(fetchMock, 'POST /api/enroll')).toEqual([{ preview: true }]);
    await flush(ENROLL_REDIRECT_MS);
    expect(screen.getByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
  });

  it('shows why a preview failed', async () => {
    mockApi({ 'POST /api/enroll': () => ({ status: 500, body: { error: 'internal_error' } }) });
    renderRoute(<EnrollPanel />, { path: '/enroll', user: { ...learner, role: 'admin' } });
    screen.getByRole('button', { name: 'Preview the program as a learner' }).click();
    expect((await screen.findByRole('alert')).textContent).toBe('Unable to enroll in the program.');
  });
});
