import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, mockFetch, renderScreen } from '../../features/auth/testing/test-utils';
import LandingRoute from './landing';

afterEach(() => vi.unstubAllGlobals());

describe('Landing', () => {
  it('invites visitors to register', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 401, body: {} } });
    renderScreen(<LandingRoute />, '/');
    expect(screen.getByRole('heading', { name: 'Secure career insights' })).toBeTruthy();
    expect(screen.getByText(/verify your email/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get started' }).getAttribute('href')).toBe('/register');
  });

  it('sends a signed-in admin to the admin dashboard', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 200, body: me({ role: 'admin' }) } });
    renderScreen(<LandingRoute />, '/');
    expect((await screen.findByTestId('location')).textContent).toBe('/admin/dashboard');
  });

  it('keeps a signed-in learner on the landing page', async () => {
    const api = mockFetch({ 'GET /api/auth/me': { status: 200, body: me() } });
    renderScreen(<LandingRoute />, '/');
    await vi.waitFor(() => expect(api.callsTo('GET /api/auth/me')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('heading', { name: 'Secure career insights' })).toBeTruthy();
  });

  it('says what the program gives: the four weeks with every module, the time, what you produce and a FAQ', async () => {
    mockFetch({ 'GET /api/auth/me': { status: 401, body: {} } });
    renderScreen(<LandingRoute />, '/');
    for (const week of [1, 2, 3, 4]) expect(screen.getByRole('heading', { name: new RegExp(`^Week ${week}: `) })).toBeTruthy();
    for (const module of ['Know your strengths', 'Write achievement bullets', 'Network with purpose', 'Plan your first 90 days']) {
      expect(screen.getByText(module)).toBeTruthy();
    }
    expect(screen.getByText(/About two hours a week/)).toBeTruthy();
    expect(screen.getByText(/A 90-day plan/)).toBeTruthy();
    expect(screen.getByText(/one-line pitch/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Questions' })).toBeTruthy();
    expect(screen.getByText('Why a code by email at every sign-in?')).toBeTruthy();
  });
});
