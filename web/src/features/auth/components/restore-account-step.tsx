import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import type { SessionUser } from '@/lib/auth';
import { ApiError } from '@/lib/api-client';
import { formatLongDate } from '@/utils/format';
import { CODE_LENGTH } from '@shared/constants';
import { useStartRestore, useVerifyRestore } from '../api/restore-account';
import { PASSKEY_REQUIRED, THROTTLED, twoFactorErrorView } from '../utils/error-messages';
import { CodeField } from './code-field';
import { LocalMailNote } from './local-mail-note';

interface RestoreAccountStepProps {
  email: string;
  password: string;
  /** When the data will be erased (the sign-in's 403 `account_deleted` says). */
  eraseAfter: string | null;
  onStartOver: () => void;
  onRestored: (user: SessionUser | null) => void;
}

const RESTORE_FAILED = 'Unable to restore your account right now. Please try again.';
/**
 * The restore request answers `invalid_credentials` once the account is no longer one its owner
 * may restore (restored meanwhile, its retention period over, its password changed): the API
 * answers that exactly as a wrong password, so the screen sends the person back to sign in.
 */
const NOT_RESTORABLE = 'This account can no longer be restored here. Start over and log in.';

function restoreErrorText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'throttled') return THROTTLED;
  if (error instanceof ApiError && error.code === 'invalid_credentials') return NOT_RESTORABLE;
  if (error instanceof ApiError && error.code === 'passkey_required') return PASSKEY_REQUIRED;
  return RESTORE_FAILED;
}

/**
 * The sign-in of an account its owner deleted, within the retention period
 * (docs/product.md#account-data): offer the restore, then confirm it with the emailed code, as
 * the sign-in code step does. A restored account is signed in.
 */
export function RestoreAccountStep({ email, password, eraseAfter, onStartOver, onRestored }: RestoreAccountStepProps) {
  const start = useStartRestore();
  const verify = useVerifyRestore();
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [spent, setSpent] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (challengeId) codeRef.current?.focus();
  }, [challengeId]);

  const requestCode = () => {
    setError(null);
    start.mutate(
      { email, password },
      {
        onSuccess: (response) => {
          if (!response?.challenge_id) {
            setError(RESTORE_FAILED);
            return;
          }
          setCode('');
          setSpent(false);
          setChallengeId(response.challenge_id);
        },
        onError: (failure) => setError(restoreErrorText(failure)),
      },
    );
  };

  const submitCode = (value = code) => {
    if (!challengeId) return;
    setError(null);
    verify.mutate(
      { email, code: value, challenge_id: challengeId },
      {
        onSuccess: (result) => onRestored(result.user),
        onError: (failure) => {
          const view = twoFactorErrorView(failure);
          setSpent(Boolean(view.spent));
          setError(view.message);
        },
      },
    );
  };

  const changeCode = (value: string) => {
    setCode(value);
    // The sixth digit submits (typed or pasted), once per distinct code.
    if (value.length === CODE_LENGTH && value !== code && !spent && !verify.isPending) submitCode(value);
  };

  if (!challengeId) {
    return (
      <section className="card form" aria-labelledby="restore-heading">
        <h2 id="restore-heading">Your account was deleted</h2>
        <p>
          You deleted this account.{' '}
          {eraseAfter ? (
            <>
              Its data will be erased for good on <strong>{formatLongDate(eraseAfter)}</strong>.
            </>
          ) : (
            'Its data will be erased for good after the retention period.'
          )}{' '}
          Until then you can restore it, with your progress and certificate: we will email you a code to confirm.
        </p>
        <FormAlert>{error}</FormAlert>
        <div className="form__actions">
          <Button onClick={requestCode} disabled={start.isPending} aria-busy={start.isPending}>
            {start.isPending ? 'Sending code…' : 'Restore my account'}
          </Button>
          <Button variant="link" onClick={onStartOver}>
            Start over
          </Button>
        </div>
      </section>
    );
  }

  return (
    <form
      className="card form"
      onSubmit={(event) => {
        event.preventDefault();
        submitCode();
      }}
      noValidate
      aria-labelledby="restore-code-heading"
    >
      <h2 id="restore-code-heading">Enter your restore code</h2>
      <p>We sent a 6-digit code to {email}. It expires in 10 minutes.</p>
      <LocalMailNote />
      <FormAlert>{error}</FormAlert>
      <CodeField ref={codeRef} label="Restore code" value={code} onChange={changeCode} hint={`Sent to ${email}`} />
      <div className="form__actions">
        <Button type="submit" disabled={code.length === 0 || verify.isPending || spent}>
          {verify.isPending ? 'Restoring…' : 'Restore and log in'}
        </Button>
        <Button variant="secondary" onClick={requestCode} disabled={start.isPending}>
          {start.isPending ? 'Sending…' : 'Send a new code'}
        </Button>
        <Button variant="link" onClick={onStartOver}>
          Start over
        </Button>
      </div>
    </form>
  );
}
