import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { useLogin } from '../api/login';
import { postLoginDestination } from '../api/post-login-destination';
import { ApiError } from '../../../lib/api-client';
import type { SessionUser } from '../../../lib/auth';
import { loginSchema, type LoginValues } from '../../../../../shared/account-forms';
import { CODE_LENGTH } from '../../../../../shared/constants';
import { useResendTwoFactor } from '../api/resend-2fa';
import { useVerifyTwoFactor } from '../api/verify-2fa';
import { useCountdown } from '../hooks/use-countdown';
import { loginErrorMessage, MISSING_CHALLENGE, resendTwoFactorErrorView, twoFactorErrorView } from '../utils/error-messages';
import { CodeField } from './code-field';
import { LocalMailNote } from './local-mail-note';
import { ResendCodeButton } from './resend-code-button';
import { RestoreAccountStep } from './restore-account-step';
import { VerifyEmailStep } from './verify-email-step';

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
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [spent, setSpent] = useState(false);
  const [unverified, setUnverified] = useState(false);
  const [deleted, setDeleted] = useState<string | null>(null);
  const [routing, setRouting] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const step = unverified ? 'verify' : deleted !== null ? 'restore' : challengeId === null ? 'credentials' : 'code';

  useEffect(() => {
    if (step === 'code') codeRef.current?.focus();
  }, [step]);

  /** After a failed request the busy button was disabled: focus goes to the message, not the body. */
  const showError = (message: string) => {
    setError(message);
    requestAnimationFrame(() => errorRef.current?.focus());
  };

  const sendCredentials = (credentials: LoginValues) => {
    setError(null);
    setNotice(null);
    login.mutate(credentials, {
      onSuccess: (response) => {
        if (!response?.challenge_id) {
          showError(MISSING_CHALLENGE);
          return;
        }
        // The password is not needed any more: do not keep it in memory.
        form.setValue('password', '');
        setCode('');
        setSpent(false);
        setChallengeId(response.challenge_id);
      },
      onError: (failure) => {
        // A deleted account its owner may restore gets the restore screen, not a dead end.
        const deletedAccount = deletedUntil(failure);
        if (deletedAccount !== null) {
          setDeleted(deletedAccount);
          return;
        }
        // An unverified account gets the code entry (with a new code on request), not a dead end.
        if (needsVerification(failure)) setUnverified(true);
        showError(loginErrorMessage(failure));
      },
    });
  };

  const submitCode = (value = code) => {
    setError(null);
    setNotice(null);
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
          setSpent(Boolean(view.spent));
          showError(view.message);
        },
      },
    );
  };

  const enter = (user: SessionUser | null) => {
    setRouting(true);
    // Back to the page a session ended on (a checked same-origin path), else the usual landing.
    void (async () => navigate(returnTo ?? (await postLoginDestination(user)), { replace: true }))();
  };

  const changeCode = (value: string) => {
    setCode(value);
    // The sixth digit submits (typed or pasted), once per distinct code.
    if (value.length === CODE_LENGTH && value !== code && !spent && !verify.isPending && !routing) submitCode(value);
  };

  const sendNewCode = () => {
    if (!challengeId) return;
    setError(null);
    setNotice(null);
    resend.mutate(
      { email: email.trim(), challenge_id: challengeId },
      {
        onSuccess: (response) => {
          if (!response?.challenge_id) {
            showError(MISSING_CHALLENGE);
            return;
          }
          setChallengeId(response.challenge_id);
          setCode('');
          setSpent(false);
          setNotice(NEW_LOGIN_CODE(email.trim()));
          countdown.start(60);
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

  const restart = () => {
    setChallengeId(null);
    setUnverified(false);
    setDeleted(null);
    setCode('');
    setError(null);
    setNotice(null);
    setSpent(false);
  };

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
        onVerified={() => {
          setUnverified(false);
          setError(null);
          setNotice(VERIFIED_NOTICE);
        }}
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
