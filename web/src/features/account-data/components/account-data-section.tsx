import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { PasswordField } from '@/components/ui/password-field';
import { ApiError, NetworkError } from '@/lib/api-client';
import { useDeleteAccount, type DeleteAccountResult } from '../api/delete-account';
import { useExportAccountData } from '../api/export-account-data';
import '../account-data.css';

const DELETE_ERRORS: Record<string, string> = {
  invalid_password: 'That password is not correct. Your account has not been deleted.',
  throttled: 'Too many attempts. Please wait a moment before trying again.',
  admin_self_delete: 'Administrator accounts are removed by another administrator.',
};

function deleteErrorText(error: unknown): string {
  if (error instanceof ApiError && error.code && DELETE_ERRORS[error.code]) return DELETE_ERRORS[error.code];
  if (error instanceof NetworkError) return 'Unable to reach the server. Your account has not been deleted.';
  return 'Unable to delete your account right now. Please try again.';
}

/**
 * Settings → 'Your data' (docs/product.md#account-data): download everything the product keeps
 * about the account (GDPR articles 15 and 20), and delete the account after typing the password.
 */
export function AccountDataSection({ onDeleted }: { onDeleted: (result: DeleteAccountResult) => void }) {
  const exportData = useExportAccountData();
  const remove = useDeleteAccount();
  const dialog = useRef<HTMLDialogElement>(null);
  const [password, setPassword] = useState('');
  // the download's confirmation shows where it was asked for: on the page or in the dialog
  const [downloadFrom, setDownloadFrom] = useState<'page' | 'dialog'>('page');
  const download = (from: 'page' | 'dialog') => {
    setDownloadFrom(from);
    exportData.mutate();
  };
  const downloaded = (from: 'page' | 'dialog') => exportData.isSuccess && downloadFrom === from;

  const openDialog = () => {
    remove.reset();
    setPassword('');
    dialog.current?.showModal();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const result = await remove.mutateAsync(password);
      dialog.current?.close();
      onDeleted(result);
    } catch {
      // shown from remove.error below; the password stays so the learner can correct it
    }
  };

  return (
    <section className="settings-section account-data" aria-labelledby="account-data-title">
      <h2 id="account-data-title">Your data</h2>
      <div className="account-data__row">
        <div>
          <h3>Download my data</h3>
          <p className="account-data__hint">
            A JSON file with your profile, enrollment, progress, task answers, reminder setting, active sessions and the security history of
            your account.
          </p>
        </div>
        <Button variant="secondary" onClick={() => download('page')} disabled={exportData.isPending} aria-busy={exportData.isPending}>
          {exportData.isPending ? 'Preparing…' : 'Download my data'}
        </Button>
      </div>
      <div aria-live="polite">{downloaded('page') && <p className="account-data__ok">Your data has been downloaded.</p>}</div>
      {exportData.isError && <FormAlert>Unable to prepare your data right now. Please try again.</FormAlert>}

      <div className="account-data__row account-data__row--danger">
        <div>
          <h3>Delete my account</h3>
          <p className="account-data__hint">
            Your account is deactivated at once and you are signed out everywhere. Your data is erased for good after the retention period;
            until then an administrator can restore it.
          </p>
        </div>
        <Button variant="danger" onClick={openDialog}>
          Delete my account
        </Button>
      </div>

      <dialog
        ref={dialog}
        className="account-data__dialog"
        aria-labelledby="delete-account-title"
        aria-describedby="delete-account-consequence"
      >
        <form onSubmit={submit} noValidate>
          <h2 id="delete-account-title">Delete your account?</h2>
          <p id="delete-account-consequence">
            You will be signed out on every device and will no longer be able to sign in. Type your password to confirm.
          </p>
          <p className="account-data__hint">
            If you have a certificate, it stops verifying: anyone checking its code is told it does not exist. You can restore your account
            yourself by logging in before your data is erased.
          </p>
          <div className="account-data__first">
            <span>Want to keep a copy of your data?</span>
            <Button variant="secondary" onClick={() => download('dialog')} disabled={exportData.isPending} aria-busy={exportData.isPending}>
              {exportData.isPending ? 'Preparing…' : 'Download my data first'}
            </Button>
            <span aria-live="polite">{downloaded('dialog') && 'Your data has been downloaded.'}</span>
          </div>
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
            // The form opens on the learner's "Delete account": focus goes to the one field they must fill.
            // eslint-disable-next-line jsx-a11y/no-autofocus
            autoFocus
          />
          {remove.isError && <FormAlert>{deleteErrorText(remove.error)}</FormAlert>}
          <div className="account-data__actions">
            <Button variant="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={!password || remove.isPending} aria-busy={remove.isPending}>
              {remove.isPending ? 'Deleting…' : 'Delete my account'}
            </Button>
          </div>
        </form>
      </dialog>
    </section>
  );
}
