import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useReducer, useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { PasswordField } from '@/components/ui/password-field';
import { TextField } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { useLogin } from '../api/login';
import { postLoginDestination } from '../api/post-login-destination';
import { ApiError } from '@/lib/api-client';
import type { SessionUser } from '@/lib/auth';
import { loginSchema, type LoginValues } from '@shared/account-forms';
import { CODE_LENGTH } from '@shared/constants';
import { useResendTwoFactor } from '../api/resend-2fa';
import { useVerifyTwoFactor } from '../api/verify-2fa';
import { useCountdown } from '../hooks/use-countdown';
import { loginErrorMessage, MISSING_CHALLENGE, resendTwoFactorErrorView, twoFactorErrorView } from '../utils/error-messages';
import { initialLoginState, loginReducer, loginStepOf } from '../utils/login-state';
import { CodeField } from './code-field';
import { LocalMailNote } from './local-mail-note';
import { ResendCodeButton } from './resend-code-button';
import { RestoreAccountStep } from './restore-account-step';
import { RESEND_WAIT_SECONDS, VerifyEmailStep } from './verify-email-step';

export const VERIFIED_NOTICE = 'Your email is verified. You can now log in.';
const NEW_LOGIN_CODE = (email: string) => `We sent a new code to ${email}.`;

const needsVerification = (error: unknown) => error instanceof ApiError && error.status === 403 && Boolean(error.body.needsVerification);
/** The right password of an account its owner deleted: the day its data goes, else null (not restorable). */
const deletedUntil = (error: unknown) =>
  error instanceof ApiError && error.code === 'account_deleted'
    ? typeof error.body.erase_after === 'string'
      ? error.body.erase_after
      : ''
    : null;

/** Two steps (docs/product.md#2-screens-and-routes Login, #4-states-and-transitions): email + password, then the emailed 6-digit code. */
export function LoginForm({ returnTo = null }: { returnTo?: string | null } = {}) {
  const navigate = useNavigate();
  const login = useLogin();
  const verify = useVerifyTwoFactor();
  const resend = useResendTwoFactor();
  const countdown = useCountdown();
  // The credentials step on react-hook-form with the shared schema (shared/account-forms.ts); the
  // email stays in the form's state for the code and verification steps.
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });
  const [email, password] = useWatch({ control: form.control, name: ['email', 'password'] });
  const [state, dispatch] = useReducer(loginReducer, initialLoginState);
  const { challengeId, code, error, notice, spent, deleted, routing } = state;
  const codeRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const step = loginStepOf(state);

  useEffect(() => {
    if (step === 'code') codeRef.current?.focus();
  }, [step]);

  /** After a failed request the busy button was disabled: focus goes to the message, not the body. */
  const showError = (message: string, spentCode?: boolean) => {
    dispatch({ type: 'failed', message, spent: spentCode });
    requestAnimationFrame(() => errorRef.current?.focus());
  };

  const sendCredentials = (credentials: LoginValues) => {
    dispatch({ type: 'request' });
    login.mutate(credentials, {
      onSuccess: (response) => {
        if (!response?.challenge_id) {
          showError(MISSING_CHALLENGE);
          return;
        }
        // The password is not needed any more: do not keep it in memory.
        form.setValue('password', '');
        dispatch({ type: 'challenge', challengeId: response.challenge_id });
        // a code was just sent: "Send a new code" counts down its one-a-minute limit, as at registration
        countdown.start(RESEND_WAIT_SECONDS);
      },
      onError: (failure) => {
        // A deleted account its owner may restore gets the restore screen, not a dead end.
        const deletedAccount = deletedUntil(failure);
        if (deletedAccount !== null) {
          dispatch({ type: 'deleted', eraseAfter: deletedAccount });
          return;
        }
        // An unverified account gets the code entry (with a new code on request), not a dead end.
        if (needsVerification(failure)) dispatch({ type: 'unverified' });
        showError(loginErrorMessage(failure));
      },
    });
  };

  const submitCode = (value = code) => {
    dispatch({ type: 'request' });
    if (!challengeId) {
      showError(MISSING_CHALLENGE);
      return;
    }
    verify.mutate(
      { email: email.trim(), code: value, challenge_id: challengeId },
      {
        onSuccess: (result) => enter(result.user),
        onError: (failure) => {
          const view = twoFactorErrorView(failure);
          showError(view.message, Boolean(view.spent));
        },
      },
    );
  };

  const enter = (user: SessionUser | null) => {
    dispatch({ type: 'signed_in' });
    // Back to the page a session ended on (a checked same-origin path), else the usual landing.
    void (async () => navigate(returnTo ?? (await postLoginDestination(user)), { replace: true }))();
  };

  const changeCode = (value: string) => {
    dispatch({ type: 'code_changed', code: value });
    // The sixth digit submits (typed or pasted), once per distinct code.
    if (value.length === CODE_LENGTH && value !== code && !spent && !verify.isPending && !routing) submitCode(value);
  };

  const sendNewCode = () => {
    if (!challengeId) return;
    dispatch({ type: 'request' });
    resend.mutate(
      { email: email.trim(), challenge_id: challengeId },
      {
        onSuccess: (response) => {
          if (!response?.challenge_id) {
            showError(MISSING_CHALLENGE);
            return;
          }
          dispatch({ type: 'challenge', challengeId: response.challenge_id, notice: NEW_LOGIN_CODE(email.trim()) });
          countdown.start(RESEND_WAIT_SECONDS);
          codeRef.current?.focus();
        },
        onError: (failure) => {
          const view = resendTwoFactorErrorView(failure);
          if (view.retryAfter) countdown.start(view.retryAfter);
          showError(view.message);
        },
      },
    );
  };

  const restart = () => dispatch({ type: 'restart' });

  if (step === 'restore') {
    return (
      <RestoreAccountStep
        email={email.trim()}
        password={password}
        eraseAfter={deleted || null}
        onRestored={enter}
        onStartOver={() => {
          restart();
          form.reset();
        }}
      />
    );
  }

  if (step === 'verify') {
    return (
      <VerifyEmailStep
        email={email.trim()}
        notice={error}
        noticeTone="error"
        onVerified={() => dispatch({ type: 'verified', notice: VERIFIED_NOTICE })}
        onStartOver={() => {
          restart();
          form.reset();
        }}
      />
    );
  }

  if (step === 'code') {
    const busy = verify.isPending || routing;
    return (
      <form
        className="card form"
        onSubmit={(event) => {
          event.preventDefault();
          submitCode();
        }}
        noValidate
        aria-labelledby="login-code-heading"
      >
        <h2 id="login-code-heading">Enter your login code</h2>
        <p>We sent a 6-digit code to {email.trim()}. It expires in 10 minutes.</p>
        <LocalMailNote />
        <div ref={errorRef} tabIndex={-1}>
          <FormAlert>{error}</FormAlert>
        </div>
        <FormAlert tone="success">{notice}</FormAlert>
        <CodeField ref={codeRef} label="2FA code" value={code} onChange={changeCode} hint={`Sent to ${email.trim()}`} />
        <div className="form__actions">
          <Button type="submit" disabled={code.length === 0 || busy || spent}>
            {busy ? 'Verifying…' : 'Verify and log in'}
          </Button>
          <ResendCodeButton onClick={sendNewCode} secondsLeft={countdown.left} pending={resend.isPending} />
          <Button variant="link" onClick={restart}>
            Start over
          </Button>
        </div>
      </form>
    );
  }

  return (
    <form className="card form" onSubmit={(event) => void form.handleSubmit(sendCredentials)(event)} noValidate aria-label="Log in">
      <div ref={errorRef} tabIndex={-1}>
        <FormAlert>{error}</FormAlert>
      </div>
      <FormAlert tone="success">{notice}</FormAlert>
      <TextField label="Email" type="email" autoComplete="email" {...form.register('email')} required />
      <PasswordField label="Password" autoComplete="current-password" {...form.register('password')} required />
      <div className="form__actions">
        <Button type="submit" disabled={login.isPending || !email.trim() || !password}>
          {login.isPending ? 'Logging in…' : 'Log in'}
        </Button>
        <Link to={paths.forgotPassword}>Forgot password?</Link>
      </div>
      <p>
        New here? <Link to={paths.register}>Register here</Link>
      </p>
    </form>
  );
}
