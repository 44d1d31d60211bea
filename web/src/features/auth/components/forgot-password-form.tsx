import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { registerTexts, RESET_REQUEST_FAILED, RESET_REQUESTED } from '../utils/error-messages';

/**
 * Asks for a reset link. The answer is the same whether or not the account exists, so the screen
 * never tells who is registered.
 */
export function ForgotPasswordForm() {
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const trimmed = email.trim();
    if (!trimmed) {
      setEmailError(registerTexts.emailRequired);
      return;
    }
    setEmailError(undefined);
    request.mutate(trimmed, {
      onSuccess: () => setSent(true),
      onError: () => setError(RESET_REQUEST_FAILED),
    });
  };

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
        name="email"
        autoComplete="email"
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          setEmailError(undefined);
        }}
        error={emailError}
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
