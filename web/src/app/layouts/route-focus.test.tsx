import { act, render, screen, waitFor } from '@testing-library/react';
import { useRef } from 'react';
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { documentTitle, RouteFocus } from './route-focus';

function Shell() {
  const content = useRef<HTMLDivElement>(null);
  return (
    <>
      <RouteFocus container={content} />
      <nav>
        <Link to="/settings">Settings</Link>
      </nav>
      <div ref={content}>
        <Outlet />
      </div>
    </>
  );
}

describe('RouteFocus', () => {
  it('gives every route its own title', () => {
    expect(documentTitle('/dashboard')).toBe('Dashboard · Career Program');
    expect(documentTitle('/modules/know-your-strengths')).toBe('Module · Career Program');
    expect(documentTitle('/admin/users')).toBe('Users · Career Program');
    expect(documentTitle('/')).toBe('Career Program');
    expect(documentTitle('/certificate')).toBe('Your certificate · Career Program');
    expect(documentTitle('/certificates/ABCD-1234')).toBe('Certificate check · Career Program');
    expect(documentTitle('/account-deleted')).toBe('Account deleted · Career Program');
    expect(documentTitle('/nope')).toBe('Page not found · Career Program');
  });

  it('sets the title and, after a route change, moves focus to the page heading', async () => {
    const router = createMemoryRouter(
      [
        {
          element: <Shell />,
          children: [
            { path: '/dashboard', element: <h1>Dashboard</h1> },
            { path: '/settings', element: <h1>Settings</h1> },
          ],
        },
      ],
      { initialEntries: ['/dashboard'] },
    );
    render(<RouterProvider router={router} />);
    expect(document.title).toBe('Dashboard · Career Program');
    // The first load leaves focus alone.
    expect(document.activeElement).toBe(document.body);
    await act(() => {
      screen.getByRole('link', { name: 'Settings' }).click();
      return Promise.resolve();
    });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Settings' })));
    expect(document.title).toBe('Settings · Career Program');
  });
});
