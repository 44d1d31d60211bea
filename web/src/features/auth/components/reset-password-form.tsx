import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { MIN_PASSWORD_LENGTH } from '../../../../../shared/constants';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { LoadingText } from '../../../components/ui/loading-text';
import { PasswordField } from '../../../components/ui/password-field';
import { LazyPasswordStrength } from './lazy-password-strength';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useConfirmPasswordReset } from '../api/confirm-password-reset';
import { useValidateResetToken } from '../api/validate-reset-token';
import { resetErrorView, resetTexts } from '../utils/error-messages';

/**
 * Reads `?token=`, checks it (validating → valid | invalid, docs/product.md#4-states-and-transitions), then lets the user choose a
 * new password. After success the form stays (disabled) with the success message.
 */
export function ResetPasswordForm() {
  const [params, setParams] = useSearchParams();
  // Read once, then kept in memory only: the address loses `?token=` (docs/security.md), so the
  // token stays out of the history, a shared screen and the Referer of any later navigation.
  const [token] = useState(() => params.get('token')?.trim() ?? '');
  useEffect(() => {
    if (!params.has('token')) return;
    const rest = new URLSearchParams(params);
    rest.delete('token');
    setParams(rest, { replace: true });
  }, [params, setParams]);
  const validation = useValidateResetToken(token);
  const confirm = useConfirmPasswordReset();
  const [password, setPassword] = useState('');
  const [password2, setPassword2] = useState('');
  const [show, setShow] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<{ password?: string; password2?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [linkRejected, setLinkRejected] = useState(false);
  const [done, setDone] = useState(false);

  // A network failure while checking does not prove the link bad: let the update call decide.
  const validationRejected = validation.error instanceof ApiError;
  const invalid = !token || validationRejected || linkRejected;
  // Each control is disabled itself too: a disabled <fieldset> alone leaves `.disabled` false.
  const locked = invalid || done;
  if (token && validation.isPending) return <LoadingText>Checking your reset link…</LoadingText>;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const errors: typeof fieldErrors = {};
    if (password.length < MIN_PASSWORD_LENGTH) errors.password = resetTexts.tooShort;
    if (password !== password2) errors.password2 = resetTexts.mismatch;
    setFieldErrors(errors);
    if (Object.keys(errors).length) return;
    confirm.mutate(
      { token, password, password2 },
      {
        onSuccess: () => {
          setDone(true);
          setPassword('');
          setPassword2('');
        },
        onError: (failure) => {
          const view = resetErrorView(failure);
          if (view.invalidLink) setLinkRejected(true);
          else setError(view.message);
        },
      },
    );
  };

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label="Reset password">
      {invalid ? (
        <FormAlert>
          <p>{resetTexts.invalidLink}</p>
          <p>
            {resetTexts.requestNew} <Link to={paths.forgotPassword}>Request a new link</Link>
          </p>
        </FormAlert>
      ) : null}
      <FormAlert>{error}</FormAlert>
      {done ? <FormAlert tone="success">Your password has been updated. You can now log in with your new password.</FormAlert> : null}
      <fieldset className="form__fieldset" disabled={locked}>
        <legend className="visually-hidden">Choose a new password</legend>
        <PasswordField
          label="New password"
          name="password"
          autoComplete="new-password"
          hint={`Use at least ${MIN_PASSWORD_LENGTH} characters.`}
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            if (!locked) setError(null);
          }}
          error={fieldErrors.password}
          visible={show}
          onVisibleChange={setShow}
          disabled={locked}
          alsoControls={['reset-password-confirm']}
          required
        />
        <LazyPasswordStrength password={password} />
        <PasswordField
          inputId="reset-password-confirm"
          label="Confirm new password"
          name="password2"
          autoComplete="new-password"
          value={password2}
          onChange={(e) => {
            setPassword2(e.target.value);
            if (!locked) setError(null);
          }}
          error={fieldErrors.password2}
          visible={show}
          hideToggle
          disabled={locked}
          required
        />
        <div className="form__actions">
          <Button type="submit" disabled={locked || confirm.isPending}>
            {confirm.isPending ? 'Updating…' : 'Update password'}
          </Button>
        </div>
      </fieldset>
      <div className="form__actions">
        {done ? (
          <Link className="button button--primary" to={paths.login}>
            Continue to login
          </Link>
        ) : null}
        <Link to={paths.login}>Back to login</Link>
      </div>
    </form>
  );
}
