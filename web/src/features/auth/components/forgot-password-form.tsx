import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { forgotPasswordSchema, type ForgotPasswordValues } from '@shared/account-forms';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { RESET_REQUEST_FAILED, RESET_REQUESTED } from '../utils/error-messages';

/**
 * Asks for a reset link. The answer is the same whether or not the account exists, so the screen
 * never tells who is registered. react-hook-form with the shared schema (shared/account-forms.ts).
 */
export function ForgotPasswordForm() {
  const request = useRequestPasswordReset();
  // Checked on submit only; typing clears the field's message until the next submit.
  const form = useForm<ForgotPasswordValues>({
    resolver: zodResolver(forgotPasswordSchema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: { email: '' },
  });
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = form.handleSubmit(
    ({ email }) => {
      setError(null);
      request.mutate(email, {
        onSuccess: () => setSent(true),
        onError: () => setError(RESET_REQUEST_FAILED),
      });
    },
    () => setError(null),
  );

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label="Forgot password">
      <p>Enter your account email and we will send you a link to choose a new password.</p>
      <FormAlert>{error}</FormAlert>
      {sent && !error ? (
        <FormAlert tone="success">
          <p>{RESET_REQUESTED}</p>
          <p className="alert__hint">Check your spam or junk folder if it does not arrive within a few minutes.</p>
        </FormAlert>
      ) : null}
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        {...form.register('email', { onChange: () => form.clearErrors('email') })}
        error={form.formState.errors.email?.message}
        required
      />
      <div className="form__actions">
        <Button type="submit" disabled={request.isPending}>
          {request.isPending ? 'Sending…' : sent ? 'Send again' : 'Send reset link'}
        </Button>
        <Link to={paths.login}>Back to login</Link>
      </div>
    </form>
  );
}
