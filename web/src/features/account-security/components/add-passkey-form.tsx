import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { PasswordField } from '@/components/ui/password-field';
import { TextField } from '@/components/ui/text-field';
import { confirmWithPasskey, useAddPasskey, type Confirmation, type PasskeyAssertion } from '../api/add-passkey';
import { securityErrorMessage } from '../utils/messages';

/**
 * Adds a passkey: an optional name, then "Confirm it's you" with the password or, when the
 * account has one, an existing passkey. Confirming with a passkey and creating the new one are two
 * presses: some browsers allow one passkey dialog per press.
 */
export function AddPasskeyForm({ onAdded, hasPasskeys }: { onAdded: (name: string) => void; hasPasskeys: boolean }) {
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const [assertion, setAssertion] = useState<PasskeyAssertion | null>(null);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const close = () => {
    setConfirming(false);
    setPassword('');
    setAssertion(null);
    setError(null);
  };
  const run = (confirmation: Confirmation) => {
    setError(null);
    add.mutate(
      { name: name.trim() || undefined, confirmation },
      {
        onSuccess: (passkey) => {
          close();
          setName('');
          onAdded(passkey.name);
        },
        onError: (failure) => {
          setAssertion(null);
          setError(securityErrorMessage(failure, 'Unable to add the passkey.'));
        },
      },
    );
  };
  const start = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setConfirming(true);
    setTimeout(() => passwordRef.current?.focus(), 0);
  };
  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    run({ currentPassword: password });
  };
  const confirmByPasskey = async () => {
    setError(null);
    setAsking(true);
    try {
      setAssertion(await confirmWithPasskey());
    } catch (failure) {
      setError(securityErrorMessage(failure, 'Unable to add the passkey.'));
    } finally {
      setAsking(false);
    }
  };

  if (!confirming)
    return (
      <form className="sec-form" onSubmit={start} noValidate aria-label="Add a passkey">
        <FormAlert>{error}</FormAlert>
        <TextField
          label="Passkey name"
          name="passkey-name"
          value={name}
          maxLength={64}
          hint="Optional. For example, the device it is on; left empty, it is named after this device."
          onChange={(event) => setName(event.target.value)}
          autoComplete="off"
        />
        <div className="sec-actions">
          <Button type="submit">Add a passkey</Button>
        </div>
      </form>
    );

  return (
    <form className="sec-form" onSubmit={submitPassword} noValidate aria-labelledby="confirm-passkey-title">
      <h4 id="confirm-passkey-title">Confirm it's you</h4>
      <FormAlert>{error}</FormAlert>
      {assertion ? (
        <>
          <p className="sec-muted">Confirmed with your passkey. Now create the new passkey.</p>
          <div className="sec-actions">
            <Button onClick={() => run({ passkey: assertion })} disabled={add.isPending}>
              {add.isPending ? 'Adding…' : 'Create the passkey'}
            </Button>
            <Button variant="link" onClick={close}>
              Cancel
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className="sec-muted">
            {hasPasskeys ? 'Enter your password, or use one of your passkeys, to add a passkey.' : 'Enter your password to add a passkey.'}
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
            <Button type="submit" disabled={add.isPending || !password}>
              {add.isPending ? 'Adding…' : 'Continue'}
            </Button>
            {hasPasskeys ? (
              <Button variant="secondary" onClick={() => void confirmByPasskey()} disabled={asking || add.isPending}>
                Use a passkey instead
              </Button>
            ) : null}
            <Button variant="link" onClick={close}>
              Cancel
            </Button>
          </div>
        </>
      )}
    </form>
  );
}
