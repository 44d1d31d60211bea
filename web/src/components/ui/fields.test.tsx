import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FormAlert } from './form-alert';
import { PasswordField } from './password-field';
import { TextField } from './text-field';

describe('TextField', () => {
  it('labels the input and links hint and error through aria-describedby', () => {
    render(<TextField label="Email" hint="We never share it." error="Email is required." />);
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const texts = input
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(texts).toEqual(['We never share it.', 'Email is required.']);
    expect(screen.getByRole('alert').textContent).toBe('Email is required.');
  });

  it('is neither invalid nor described without hint and error', () => {
    render(<TextField label="Email" />);
    const input = screen.getByLabelText('Email');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
  });
});

describe('PasswordField', () => {
  it('toggles between hidden and shown with an aria-pressed button', async () => {
    render(<PasswordField label="Password" />);
    const input = screen.getByLabelText<HTMLInputElement>('Password');
    expect(input.type).toBe('password');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show' }));
    expect(input.type).toBe('text');
    const hide = screen.getByRole('button', { name: 'Hide' });
    expect(hide.getAttribute('aria-pressed')).toBe('true');
    expect(hide.getAttribute('aria-controls')).toBe(input.id);
  });
});

describe('FormAlert', () => {
  it('announces errors as alerts and successes as status, and renders nothing when empty', () => {
    const { container } = render(
      <>
        <FormAlert>{null}</FormAlert>
        <FormAlert>Broken.</FormAlert>
        <FormAlert tone="success">Done.</FormAlert>
      </>,
    );
    expect(screen.getByRole('alert').textContent).toBe('Broken.');
    expect(screen.getByRole('status').textContent).toBe('Done.');
    expect(container.querySelectorAll('.alert')).toHaveLength(2);
  });
});
