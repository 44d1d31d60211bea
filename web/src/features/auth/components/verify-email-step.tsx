import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { CODE_LENGTH } from '@shared/constants';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { useResendVerification } from '../api/resend-verification';
import { useVerifyEmail } from '../api/verify-email';
import { useCountdown } from '../hooks/use-countdown';
import { THROTTLED, verifyEmailErrorMessage } from '../utils/error-messages';
import { CodeField } from './code-field';
import { LocalMailNote } from './local-mail-note';
import { ResendCodeButton } from './resend-code-button';

/** The server sends at most one verification code a minute per address. */
export const RESEND_WAIT_SECONDS = 60;
export const NEW_CODE_SENT = 'If that address is waiting for verification, a new code is on its way.';

interface VerifyEmailStepProps {
  /** The address the code went to; empty when it is not known (e.g. a new tab): then it is asked for. */
  email: string;
  onVerified: (email: string) => void;
  onStartOver: () => void;
  /** A message above the step (e.g. why the user is here). */
  notice?: ReactNode;
  noticeTone?: 'error' | 'info';
  /** Seconds before the first resend is allowed (a code was just sent). */
  initialWait?: number;
}

/**
 * Entering the emailed verification code, with a way out of every dead end: 'Send a new code'
 * (counting down while the one-a-minute limit holds) and 'Wrong email? Start over'.
 */
export function VerifyEmailStep({
  email: knownEmail,
  onVerified,
  onStartOver,
  notice,
  noticeTone = 'info',
  initialWait = 0,
}: VerifyEmailStepProps) {
  const verify = useVerifyEmail();
  const resend = useResendVerification();
  const countdown = useCountdown(initialWait);
  const [email, setEmail] = useState(knownEmail);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const askEmail = !knownEmail;

  useEffect(() => {
    if (!askEmail) codeRef.current?.focus();
  }, [askEmail]);

  const submit = (value = code) => {
    setError(null);
    setStatus(null);
    verify.mutate(
      { email: email.trim(), code: value },
      {
        onSuccess: () => onVerified(email.trim()),
        onError: (failure) => {
          setError(verifyEmailErrorMessage(failure));
          // The busy button was disabled: move focus to the message, not to the page body.
          requestAnimationFrame(() => errorRef.current?.focus());
        },
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  const changeCode = (value: string) => {
    setCode(value);
    setError(null);
    // The sixth digit submits: no extra click after typing or pasting the code.
    if (value.length === CODE_LENGTH && value !== code && email.trim() && !verify.isPending) submit(value);
  };

  const sendNewCode = () => {
    setError(null);
    setStatus(null);
    resend.mutate(
      { email: email.trim() },
      {
        onSuccess: () => {
          setStatus(NEW_CODE_SENT);
          countdown.start(RESEND_WAIT_SECONDS);
          setCode('');
          codeRef.current?.focus();
        },
        onError: (failure) => {
          const retryAfter = Number((failure as { body?: { retry_after?: unknown } }).body?.retry_after ?? 0);
          if (retryAfter > 0) {
            countdown.start(retryAfter);
            setError(THROTTLED);
          } else {
            setError('Unable to send a new code right now. Please try again.');
          }
        },
      },
    );
  };

  return (
    <form className="card form" onSubmit={onSubmit} noValidate aria-labelledby="verify-email-heading">
      <h2 id="verify-email-heading">Verify your email</h2>
      <FormAlert tone={noticeTone}>{notice}</FormAlert>
      {askEmail ? (
        <>
          <p>Enter your email and the 6-digit code we sent to it. It expires in 10 minutes.</p>
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
          />
        </>
      ) : (
        <p>Enter the 6-digit code we sent to {email.trim()}. It expires in 10 minutes.</p>
      )}
      <LocalMailNote />
      <div ref={errorRef} tabIndex={-1} className="focus-target">
        <FormAlert>{error}</FormAlert>
      </div>
      <FormAlert tone="success">{status}</FormAlert>
      <CodeField
        ref={codeRef}
        label="Verification code"
        value={code}
        onChange={changeCode}
        hint={email.trim() ? `Sent to ${email.trim()}` : undefined}
      />
      <div className="form__actions">
        <Button type="submit" disabled={code.length === 0 || !email.trim() || verify.isPending}>
          {verify.isPending ? 'Verifying…' : 'Verify email'}
        </Button>
        <ResendCodeButton onClick={sendNewCode} secondsLeft={countdown.left} pending={resend.isPending} />
      </div>
      <p>
        <Button variant="link" onClick={onStartOver}>
          Wrong email? Start over
        </Button>
      </p>
    </form>
  );
}
