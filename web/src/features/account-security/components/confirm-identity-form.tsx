import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { PasswordField } from '@/components/ui/password-field';
import { confirmWithPasskey, type Confirmation, type PasskeyAssertion } from '../api/confirm-identity';
import { securityErrorMessage } from '../utils/messages';

export interface ConfirmIdentityFormProps {
  /** What the confirmation is for, ending the sentence "Enter your password … to <purpose>." */
  purpose: string;
  /** Offers "Use a passkey instead" when the account has a passkey. */
  hasPasskeys: boolean;
  /** The password step's button, and its text while the action runs. */
  submitLabel: string;
  pendingLabel: string;
  cancelLabel?: string;
  pending: boolean;
  /** The action's own failure, shown in the form. */
  error: string | null;
  /** Falls back to this when the passkey dialog fails in an unexpected way. */
  failureText: string;
  onConfirm: (confirmation: Confirmation) => void;
  onCancel: () => void;
  /**
   * A second press after the passkey confirmed it's them, for actions that open another passkey
   * dialog (some browsers allow one per press); without it the action runs at once.
   */
  afterPasskey?: { text: string; button: string };
}

/**
 * "Confirm it's you" (docs/security.md#account-security-center): the current password or, when the
 * account has one, a passkey, before adding or removing a passkey or ending sessions.
 */
export function ConfirmIdentityForm(props: ConfirmIdentityFormProps) {
  const { purpose, hasPasskeys, submitLabel, pendingLabel, cancelLabel = 'Cancel', pending, error, onConfirm, onCancel } = props;
  const titleId = useId();
  const [password, setPassword] = useState('');
  const [assertion, setAssertion] = useState<PasskeyAssertion | null>(null);
  const [asking, setAsking] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => passwordRef.current?.focus(), []);

  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    setDialogError(null);
    onConfirm({ currentPassword: password });
  };
  const confirmByPasskey = async () => {
    setDialogError(null);
    setAsking(true);
    try {
      const answer = await confirmWithPasskey();
      if (props.afterPasskey) setAssertion(answer);
      else onConfirm({ passkey: answer });
    } catch (failure) {
      setDialogError(securityErrorMessage(failure, props.failureText));
    } finally {
      setAsking(false);
    }
  };

  return (
    <form className="sec-form" onSubmit={submitPassword} noValidate aria-labelledby={titleId}>
      <h4 id={titleId}>Confirm it's you</h4>
      <FormAlert>{dialogError ?? error}</FormAlert>
      {assertion && props.afterPasskey ? (
        <>
          <p className="sec-muted">{props.afterPasskey.text}</p>
          <div className="sec-actions">
            <Button
              onClick={() => {
                // a challenge answers once: a refusal asks again from the start
                setAssertion(null);
                onConfirm({ passkey: assertion });
              }}
              disabled={pending}
            >
              {pending ? pendingLabel : props.afterPasskey.button}
            </Button>
            <Button variant="link" onClick={onCancel}>
              {cancelLabel}
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className="sec-muted">
            {hasPasskeys ? `Enter your password, or use one of your passkeys, to ${purpose}.` : `Enter your password to ${purpose}.`}
          </p>
          <PasswordField
            ref={passwordRef}
            label="Password"
            name="current-password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <div className="sec-actions">
            <Button type="submit" disabled={pending || !password}>
              {pending ? pendingLabel : submitLabel}
            </Button>
            {hasPasskeys ? (
              <Button variant="secondary" onClick={() => void confirmByPasskey()} disabled={asking || pending}>
                Use a passkey instead
              </Button>
            ) : null}
            <Button variant="link" onClick={onCancel}>
              {cancelLabel}
            </Button>
          </div>
        </>
      )}
    </form>
  );
}
