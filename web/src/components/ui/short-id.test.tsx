import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShortId } from './short-id';

const uuid = '3f2b8c1e-9d4a-4b7e-a1c2-5e6f7a8b9c0d';

afterEach(() => vi.restoreAllMocks());

describe('ShortId', () => {
  it('cuts a long id to 8 characters, keeps the whole id in the title, and copies the whole id', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    render(<ShortId id={uuid} what="user id" />);
    expect(screen.getByText('3f2b8c1e…').getAttribute('title')).toBe(uuid);
    await user.click(screen.getByRole('button', { name: `Copy user id ${uuid}` }));
    expect(writeText).toHaveBeenCalledWith(uuid);
    expect(screen.getByRole('button', { name: `Copy user id ${uuid}` }).textContent).toBe('Copied');
    expect(screen.getByRole('status').textContent).toBe('Copied');
  });

  it('says when the copy failed', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    render(<ShortId id={uuid} />);
    await user.click(screen.getByRole('button', { name: `Copy id ${uuid}` }));
    expect(screen.getByRole('status').textContent).toBe('Copy failed');
  });

  it('shows a short id whole, without a button', () => {
    render(<ShortId id="u-42" />);
    expect(screen.getByText('u-42')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
