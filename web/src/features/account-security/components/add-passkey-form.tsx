import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { useAddPasskey } from '../api/add-passkey';
import type { Confirmation } from '../api/confirm-identity';
import { securityErrorMessage } from '../utils/messages';
import { ConfirmIdentityForm } from './confirm-identity-form';

/**
 * Adds a passkey: an optional name, then "Confirm it's you" with the password or, when the
 * account has one, an existing passkey. Confirming with a passkey and creating the new one are two
 * presses: some browsers allow one passkey dialog per press.
 */
export function AddPasskeyForm({ onAdded, hasPasskeys }: { onAdded: (name: string) => void; hasPasskeys: boolean }) {
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setConfirming(false);
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
        onError: (failure) => setError(securityErrorMessage(failure, 'Unable to add the passkey.')),
      },
    );
  };
  const start = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setConfirming(true);
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
    <ConfirmIdentityForm
      purpose="add a passkey"
      hasPasskeys={hasPasskeys}
      submitLabel="Continue"
      pendingLabel="Adding…"
      pending={add.isPending}
      error={error}
      failureText="Unable to add the passkey."
      onConfirm={run}
      onCancel={close}
      afterPasskey={{ text: 'Confirmed with your passkey. Now create the new passkey.', button: 'Create the passkey' }}
    />
  );
}
