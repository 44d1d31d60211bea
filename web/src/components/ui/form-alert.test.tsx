import { render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { FormAlert } from './form-alert';

/** A form whose busy button is disabled while the request runs, then shows an error. */
function Form() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  return (
    <div>
      <input aria-label="Name" />
      <FormAlert>{error}</FormAlert>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setTimeout(() => {
            setError('Something went wrong.');
          }, 10);
        }}
      >
        Send
      </button>
    </div>
  );
}

describe('FormAlert', () => {
  it('takes the focus when an error shows while focus was lost (the busy button got disabled)', async () => {
    render(<Form />);
    const button = screen.getByRole('button', { name: 'Send' });
    button.focus();
    button.click();
    // jsdom keeps focus on a disabled button; a browser drops it to the body: both count as lost
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('alert')));
    expect(screen.getByRole('alert').textContent).toBe('Something went wrong.');
  });

  it('never takes the focus from a field in use', async () => {
    render(
      <div>
        <input aria-label="Name" />
        <FormAlert>Already wrong.</FormAlert>
      </div>,
    );
    const field = screen.getByLabelText('Name');
    field.focus();
    await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.activeElement).toBe(field);
  });
});
