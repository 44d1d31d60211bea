import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes, stub } from '../../features/auth/testing/test-utils';
import { mockFetch } from '../../testing/mock-api';
import CertificateRoute from './certificate';
import CertificateCheckRoute from './certificate-check';

const certificate = {
  verification_code: 'AB12-CD34-EF56',
  first_name: 'Maya',
  last_name: 'Okafor',
  program_title: '4-Week Career Program',
  completed_at: '2026-11-20T15:00:00.000Z',
  issued_at: '2026-11-21T09:00:00.000Z',
  verify_url: 'http://localhost:3000/certificates/AB12-CD34-EF56',
};
const longDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

const renderMine = () =>
  renderRoutes(
    [
      { path: '/certificate', element: <CertificateRoute /> },
      { path: '/dashboard', element: stub('/dashboard') },
      { path: '/enroll', element: stub('/enroll') },
    ],
    '/certificate',
  );

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/certificate', () => {
  it('shows the certificate with the name, program, date, code and the check address', async () => {
    mockFetch({ 'GET /api/certificate': { body: certificate } });
    renderMine();
    expect(await screen.findByText('Maya Okafor')).toBeInTheDocument();
    expect(screen.getByText('4-Week Career Program')).toBeInTheDocument();
    expect(screen.getByText(`Completed on ${longDate(certificate.completed_at)}`)).toBeInTheDocument();
    expect(screen.getByText('AB12-CD34-EF56')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: certificate.verify_url }).getAttribute('href')).toBe(certificate.verify_url);
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
  });

  it('prints with the browser print dialog', async () => {
    mockFetch({ 'GET /api/certificate': { body: certificate } });
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderMine();
    await userEvent.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('before completion says how far the learner is, with a way back', async () => {
    mockFetch({ 'GET /api/certificate': { status: 403, body: { error: 'program_not_completed', completed: 3, total: 10 } } });
    renderMine();
    expect(await screen.findByText(/complete every module to earn it \(3 of 10 done so far\)/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to your dashboard' })).toBeInTheDocument();
  });

  it('a revoked certificate is explained; a failure offers a retry', async () => {
    mockFetch({ 'GET /api/certificate': { status: 403, body: { error: 'certificate_revoked' } } });
    renderMine();
    expect((await screen.findByRole('alert')).textContent).toMatch(/revoked by an administrator/);
  });

  it('a server failure offers Try again, which reloads', async () => {
    let fail = true;
    const { callsTo } = mockFetch({ 'GET /api/certificate': () => (fail ? { status: 500, body: {} } : { body: certificate }) });
    renderMine();
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toBe(
      'Unable to load your certificate right now. Please try again.',
    );
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Maya Okafor')).toBeInTheDocument();
    expect(callsTo('GET /api/certificate').length).toBeGreaterThanOrEqual(2);
  });
});

describe('/certificates/:code (public check)', () => {
  const renderCheck = (code: string) =>
    renderRoutes(
      [
        { path: '/certificates/:code', element: <CertificateCheckRoute /> },
        { path: '/', element: stub('/') },
      ],
      `/certificates/${code}`,
    );

  it('shows a valid certificate', async () => {
    mockFetch({
      'GET /api/certificates/AB12-CD34-EF56': {
        body: {
          verification_code: 'AB12-CD34-EF56',
          name: 'Maya Okafor',
          program_title: '4-Week Career Program',
          completed_at: certificate.completed_at,
          issued_at: certificate.issued_at,
          status: 'valid',
          revoked_at: null,
        },
      },
    });
    renderCheck('AB12-CD34-EF56');
    expect((await screen.findByText('This certificate is valid.')).getAttribute('role')).toBe('status');
    expect(screen.getByText('Maya Okafor')).toBeInTheDocument();
    expect(screen.getByText(longDate(certificate.completed_at))).toBeInTheDocument();
  });

  it('says when a certificate was revoked', async () => {
    mockFetch({
      'GET /api/certificates/AB12-CD34-EF56': {
        body: {
          verification_code: 'AB12-CD34-EF56',
          name: 'Maya Okafor',
          program_title: 'P',
          completed_at: certificate.completed_at,
          issued_at: certificate.issued_at,
          status: 'revoked',
          revoked_at: '2026-11-22T10:00:00.000Z',
        },
      },
    });
    renderCheck('AB12-CD34-EF56');
    expect(await screen.findByText(`This certificate was revoked on ${longDate('2026-11-22T10:00:00.000Z')}.`)).toBeInTheDocument();
  });

  it('an unknown code says so', async () => {
    mockFetch({ 'GET /api/certificates/ZZZZ-ZZZZ-ZZZZ': { status: 404, body: { error: 'certificate_not_found' } } });
    renderCheck('ZZZZ-ZZZZ-ZZZZ');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'No certificate has the code ZZZZ-ZZZZ-ZZZZ. Check the code and try again.',
    );
  });
});
