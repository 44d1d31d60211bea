import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { resetPasswordSchema, type ResetPasswordValues } from '@shared/account-forms';
import { MIN_PASSWORD_LENGTH } from '@shared/constants';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadingText } from '@/components/ui/loading-text';
import { PasswordField } from '@/components/ui/password-field';
import { LazyPasswordStrength } from './lazy-password-strength';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useConfirmPasswordReset } from '../api/confirm-password-reset';
import { useValidateResetToken } from '../api/validate-reset-token';
import { resetErrorView, resetTexts } from '../utils/error-messages';

/**
 * Reads `?token=`, checks it (validating → valid | invalid, docs/product.md#4-states-and-transitions), then lets the user choose a
 * new password. After success the form stays (disabled) with the success message. The fields
 * are checked on submit by react-hook-form with the shared schema (shared/account-forms.ts).
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
  const form = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: { password: '', password2: '' },
  });
  const password = useWatch({ control: form.control, name: 'password' });
  const [show, setShow] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [linkRejected, setLinkRejected] = useState(false);
  const [done, setDone] = useState(false);

  // A network failure while checking does not prove the link bad: let the update call decide.
  const validationRejected = validation.error instanceof ApiError;
  const invalid = !token || validationRejected || linkRejected;
  // Each control is disabled itself too: a disabled <fieldset> alone leaves `.disabled` false.
  const locked = invalid || done;
  if (token && validation.isPending) return <LoadingText>Checking your reset link…</LoadingText>;

  const submit = form.handleSubmit(
    (values) => {
      setError(null);
      confirm.mutate(
        { token, ...values },
        {
          onSuccess: () => {
            setDone(true);
            form.reset({ password: '', password2: '' });
          },
          onError: (failure) => {
            const view = resetErrorView(failure);
            if (view.invalidLink) setLinkRejected(true);
            else setError(view.message);
          },
        },
      );
    },
    () => setError(null),
  );

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
          autoComplete="new-password"
          hint={`Use at least ${MIN_PASSWORD_LENGTH} characters.`}
          {...form.register('password', { onChange: () => !locked && setError(null) })}
          error={form.formState.errors.password?.message}
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
          autoComplete="new-password"
          {...form.register('password2', { onChange: () => !locked && setError(null) })}
          error={form.formState.errors.password2?.message}
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
