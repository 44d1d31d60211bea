import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useConfirm } from './confirm-dialog';

afterEach(() => vi.restoreAllMocks());

/** A button that asks, and shows the answer. */
function Asker() {
  const { confirm, dialog } = useConfirm();
  const [answer, setAnswer] = useState('none');
  const ask = async () =>
    setAnswer(String(await confirm({ title: 'Lock account?', consequence: 'The person is signed out everywhere.', confirmLabel: 'Lock' })));
  return (
    <>
      <button type="button" onClick={() => void ask()}>
        Lock…
      </button>
      <output>{answer}</output>
      {dialog}
    </>
  );
}

describe('useConfirm', () => {
  it('asks in a native modal dialog that names the consequence, with Cancel focused', async () => {
    const showModal = vi.spyOn(HTMLDialogElement.prototype, 'showModal');
    const user = userEvent.setup();
    render(<Asker />);
    await user.click(screen.getByRole('button', { name: 'Lock…' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Lock account?' });
    expect(dialog.tagName).toBe('DIALOG');
    expect(showModal).toHaveBeenCalledOnce();
    expect(dialog).toHaveAttribute('open');
    expect(dialog).toHaveAccessibleDescription('The person is signed out everywhere.');
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
  });

  it('answers yes on the confirm button and gives focus back to the button that asked', async () => {
    const user = userEvent.setup();
    render(<Asker />);
    const opener = screen.getByRole('button', { name: 'Lock…' });
    await user.click(opener);
    await user.click(screen.getByRole('button', { name: 'Lock' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('true');
    expect(opener).toHaveFocus();
  });

  it('answers no on Escape, on Cancel and on the backdrop, and focus returns each time', async () => {
    const user = userEvent.setup();
    render(<Asker />);
    const opener = screen.getByRole('button', { name: 'Lock…' });
    const dismissals = [
      () => user.keyboard('{Escape}'),
      () => user.click(screen.getByRole('button', { name: 'Cancel' })),
      () => user.click(screen.getByRole('alertdialog')),
    ];
    for (const dismiss of dismissals) {
      await user.click(opener);
      expect(screen.getByRole('alertdialog')).toBeInTheDocument();
      await dismiss();
      expect(screen.queryByRole('alertdialog')).toBeNull();
      expect(screen.getByRole('status').textContent).toBe('false');
      expect(opener).toHaveFocus();
    }
  });

  it('keeps Escape from the dialog around it', async () => {
    const outer = vi.fn();
    const user = userEvent.setup();
    render(
      // eslint-disable-next-line jsx-a11y/no-static-element-interactions
      <div
        onKeyDown={(event) => {
          if (event.key === 'Escape') outer();
        }}
      >
        <Asker />
      </div>,
    );
    await user.click(screen.getByRole('button', { name: 'Lock…' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(outer).not.toHaveBeenCalled();
  });
});
