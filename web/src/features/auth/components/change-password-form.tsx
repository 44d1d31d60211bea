import { useState, type FormEvent } from 'react';
import { MIN_PASSWORD_LENGTH } from '../../../../../shared/constants';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordField } from '../../../components/ui/password-field';
import { LazyPasswordStrength } from './lazy-password-strength';
import { useChangePassword } from '../api/change-password';
import { changePasswordErrorMessage, changePasswordTexts } from '../utils/error-messages';

export interface ChangePasswordFormProps {
  /**
   * Render its own 'Change password' h2. Off by default: the settings page titles the section
   * itself; without the heading the form is still named 'Change password' (aria-label).
   */
  showHeading?: boolean;
}

/**
 * Settings' 'Change password' section (docs/product.md#2-screens-and-routes, #5-validation-rules). Submit is enabled only when all three fields
 * are filled, the new one has 8+ characters and the confirmation equals it.
 */
export function ChangePasswordForm({ showHeading = false }: ChangePasswordFormProps) {
  const change = useChangePassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirmNext, setConfirmNext] = useState('');
  const [currentTouched, setCurrentTouched] = useState(false);
  // Length is judged once the user leaves the field, not on the first keystroke.
  const [nextTouched, setNextTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState(false);

  const tooShort = nextTouched && next.length > 0 && next.length < MIN_PASSWORD_LENGTH;
  const mismatch = confirmNext.length > 0 && next !== confirmNext;
  const ready = current.length > 0 && next.length >= MIN_PASSWORD_LENGTH && next === confirmNext;

  const edit = (setter: (value: string) => void) => (event: { target: { value: string } }) => {
    setter(event.target.value);
    setSuccess(false);
    // The banner spoke of the old value.
    setError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setError(null);
    setSuccess(false);
    change.mutate(
      { current_password: current, new_password: next, confirm_new_password: confirmNext },
      {
        onSuccess: () => {
          setSuccess(true);
          setCurrent('');
          setNext('');
          setConfirmNext('');
          setCurrentTouched(false);
          setNextTouched(false);
        },
        onError: (failure) => setError(changePasswordErrorMessage(failure)),
      },
    );
  };

  return (
    <form className="form change-password" onSubmit={submit} noValidate aria-labelledby={showHeading ? 'change-password-heading' : undefined} aria-label={showHeading ? undefined : 'Change password'}>
      {showHeading ? <h2 id="change-password-heading">Change password</h2> : null}
      <FormAlert>{error}</FormAlert>
      {success ? <FormAlert tone="success">{changePasswordTexts.success}</FormAlert> : null}
      <PasswordField
        label="Current password"
        name="current_password"
        autoComplete="current-password"
        value={current}
        onChange={edit(setCurrent)}
        onBlur={() => setCurrentTouched(true)}
        error={currentTouched && !current ? changePasswordTexts.currentRequired : undefined}
        required
      />
      <PasswordField
        label="New password"
        name="new_password"
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        value={next}
        onChange={edit(setNext)}
        onBlur={() => setNextTouched(true)}
        error={tooShort ? changePasswordTexts.tooShort : undefined}
        required
      />
      <LazyPasswordStrength password={next} />
      <PasswordField
        label="Confirm new password"
        name="confirm_new_password"
        autoComplete="new-password"
        value={confirmNext}
        onChange={edit(setConfirmNext)}
        error={mismatch ? changePasswordTexts.mismatch : undefined}
        required
      />
      <div className="form__actions">
        <Button type="submit" disabled={!ready || change.isPending}>
          {change.isPending ? 'Updating…' : 'Update password'}
        </Button>
      </div>
    </form>
  );
}
