import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, renderScreen } from '../../features/auth/testing/test-utils';
import { mockFetch } from '../../testing/mock-api';
import LandingRoute from './landing';

afterEach(() => vi.unstubAllGlobals());

describe('Landing', () => {
  it('invites visitors to register', () => {
    mockFetch({ 'GET /api/auth/me': { status: 401, body: {} } });
    renderScreen(<LandingRoute />, '/');
    expect(screen.getByRole('heading', { name: 'Secure career insights' })).toBeInTheDocument();
    expect(screen.getByText(/verify your email/)).toBeInTheDocument();
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
    expect(screen.getByRole('heading', { name: 'Secure career insights' })).toBeInTheDocument();
  });

  it('says what the program gives: the four weeks with every module, the time, what you produce, the certificate and a FAQ', () => {
    mockFetch({ 'GET /api/auth/me': { status: 401, body: {} } });
    renderScreen(<LandingRoute />, '/');
    for (const week of [1, 2, 3, 4]) expect(screen.getByRole('heading', { name: new RegExp(`^Week ${week}: `) })).toBeInTheDocument();
    for (const module of ['Know your strengths', 'Write achievement bullets', 'Network with purpose', 'Plan your first 90 days']) {
      expect(screen.getByText(module)).toBeInTheDocument();
    }
    expect(screen.getByText(/About two hours a week/)).toBeInTheDocument();
    expect(screen.getByText(/A 90-day plan/)).toBeInTheDocument();
    expect(screen.getByText(/one-line pitch/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Questions' })).toBeInTheDocument();
    expect(screen.getByText('A certificate of completion that employers can check online.')).toBeInTheDocument();
    // the FAQ stays true with passkeys: they skip the emailed code
    expect(screen.getByText('Why a code by email when I sign in with my password?')).toBeInTheDocument();
    expect(screen.getByText(/A passkey .* signs you in without a password or a code\./)).toBeInTheDocument();
    expect(screen.getByText('Do I get a certificate?')).toBeInTheDocument();
  });
});
