import { useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { useAddPasskey } from '../api/add-passkey';
import { securityErrorMessage } from '../utils/messages';

/**
 * Adds a passkey. Right after signing in no password is asked; later the server asks for the
 * current password again, and the field appears.
 */
export function AddPasskeyForm({ onAdded }: { onAdded: (name: string) => void }) {
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [needsPassword, setNeedsPassword] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const trimmed = name.trim();
    if (!trimmed) {
      setError('Give the passkey a name, such as "Work laptop".');
      return;
    }
    add.mutate(
      { name: trimmed, currentPassword: needsPassword ? password : undefined },
      {
        onSuccess: (passkey) => {
          setName('');
          setPassword('');
          setNeedsPassword(false);
          onAdded(passkey.name);
        },
        onError: (failure) => {
          if (failure instanceof ApiError && failure.code === 'reauthentication_required') {
            setNeedsPassword(true);
            setTimeout(() => passwordRef.current?.focus(), 0);
          }
          setError(securityErrorMessage(failure, 'Unable to add the passkey.'));
        },
      },
    );
  };

  return (
    <form className="sec-form" onSubmit={submit} noValidate aria-label="Add a passkey">
      <FormAlert>{error}</FormAlert>
      <TextField
        label="Passkey name"
        name="passkey-name"
        value={name}
        maxLength={64}
        hint="For example, the device it is on."
        onChange={(event) => setName(event.target.value)}
        autoComplete="off"
      />
      {needsPassword ? (
        <PasswordField
          ref={passwordRef}
          label="Current password"
          name="current-password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      ) : null}
      <div className="sec-actions">
        <Button type="submit" disabled={add.isPending || (needsPassword && !password)}>
          {add.isPending ? 'Adding…' : 'Add a passkey'}
        </Button>
      </div>
    </form>
  );
}
