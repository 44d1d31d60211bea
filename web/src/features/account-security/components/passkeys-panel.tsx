import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import type { Confirmation } from '../api/confirm-identity';
import { usePasskeys } from '../api/get-passkeys';
import { useRemovePasskey } from '../api/remove-passkey';
import { useRenamePasskey } from '../api/rename-passkey';
import type { PasskeyItem } from '../types';
import { formatDateTimeMedium as formatWhen } from '@/utils/format';
import { isRefusedConfirmation, securityErrorMessage } from '../utils/messages';
import { ConfirmIdentityForm } from './confirm-identity-form';
import { AddPasskeyForm } from './add-passkey-form';

type Outcome = { tone: 'success' | 'error'; text: string } | null;

function PasskeyRow({ passkey, report }: { passkey: PasskeyItem; report: (outcome: Outcome) => void }) {
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm-remove'>('view');
  const [name, setName] = useState(passkey.name);

  const submitRename = (event: FormEvent) => {
    event.preventDefault();
    report(null);
    rename.mutate(
      { id: passkey.id, name: name.trim() },
      {
        onSuccess: (renamed) => {
          setMode('view');
          report({ tone: 'success', text: `Passkey renamed to "${renamed.name}".` });
        },
        onError: (error) => report({ tone: 'error', text: securityErrorMessage(error, 'Unable to rename the passkey.') }),
      },
    );
  };
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const confirmRemove = (confirmation: Confirmation) => {
    report(null);
    setConfirmError(null);
    remove.mutate(
      { id: passkey.id, confirmation },
      {
        onSuccess: () => report({ tone: 'success', text: `Passkey "${passkey.name}" removed.` }),
        onError: (error) => {
          if (isRefusedConfirmation(error)) return setConfirmError(securityErrorMessage(error, 'Unable to remove the passkey.'));
          setMode('view');
          report({ tone: 'error', text: securityErrorMessage(error, 'Unable to remove the passkey.') });
        },
      },
    );
  };

  return (
    <li className="sec-item">
      {mode === 'rename' ? (
        <form className="sec-item__main sec-form" onSubmit={submitRename} aria-label={`Rename passkey ${passkey.name}`}>
          {/* The field replaces the "Rename" button the user just pressed: focus follows it. */}
          {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
          <TextField label="New name" value={name} maxLength={64} autoFocus onChange={(event) => setName(event.target.value)} />
          <div className="sec-actions">
            <Button type="submit" disabled={!name.trim() || rename.isPending}>
              {rename.isPending ? 'Saving…' : 'Save'}
            </Button>
            <Button variant="link" onClick={() => setMode('view')}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <>
          <div className="sec-item__main">
            <span className="sec-item__title">{passkey.name}</span>
            <span className="sec-item__meta">
              Created {formatWhen(passkey.created_at)} · Last used {passkey.last_used_at ? formatWhen(passkey.last_used_at) : 'never'}
            </span>
          </div>
          {mode === 'confirm-remove' ? (
            <div className="sec-item__main" role="group" aria-label={`Remove passkey ${passkey.name}?`}>
              <span>Remove this passkey?</span>
              <ConfirmIdentityForm
                purpose="remove this passkey"
                hasPasskeys
                submitLabel="Yes, remove"
                pendingLabel="Removing…"
                cancelLabel="Keep it"
                pending={remove.isPending}
                error={confirmError}
                failureText="Unable to remove the passkey."
                onConfirm={confirmRemove}
                onCancel={() => setMode('view')}
              />
            </div>
          ) : (
            <div className="sec-actions">
              <Button
                variant="secondary"
                onClick={() => {
                  setName(passkey.name);
                  setMode('rename');
                }}
                aria-label={`Rename ${passkey.name}`}
              >
                Rename
              </Button>
              <Button
                variant="secondary"
                onClick={() => {
                  setConfirmError(null);
                  setMode('confirm-remove');
                }}
                aria-label={`Remove ${passkey.name}`}
              >
                Remove
              </Button>
            </div>
          )}
        </>
      )}
    </li>
  );
}

/** Passkeys: list (name, created, last used), rename, remove, add. */
export function PasskeysPanel() {
  const passkeys = usePasskeys();
  const [outcome, setOutcome] = useState<Outcome>(null);
  return (
    <section className="sec-block" aria-labelledby="passkeys-title">
      <h3 id="passkeys-title">Passkeys</h3>
      <p className="sec-muted">
        A passkey signs you in with your device's fingerprint, face or screen lock instead of your password and emailed code. It cannot be
        phished.
      </p>
      {passkeys.isPending ? (
        <p className="sec-muted" role="status">
          Loading passkeys…
        </p>
      ) : passkeys.isError ? (
        <FormAlert>Unable to load your passkeys.</FormAlert>
      ) : passkeys.data.length === 0 ? (
        <p className="sec-muted">You have no passkeys yet.</p>
      ) : (
        <ul className="sec-list" aria-label="Your passkeys">
          {passkeys.data.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} report={setOutcome} />
          ))}
        </ul>
      )}
      <div aria-live="polite">{outcome?.tone === 'success' ? <p className="sec-success">{outcome.text}</p> : null}</div>
      {outcome?.tone === 'error' ? <FormAlert>{outcome.text}</FormAlert> : null}
      <AddPasskeyForm
        hasPasskeys={Boolean(passkeys.data?.length)}
        onAdded={(name) => setOutcome({ tone: 'success', text: `Passkey "${name}" added.` })}
      />
    </section>
  );
}
