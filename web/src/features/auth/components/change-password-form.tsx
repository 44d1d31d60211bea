import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { changePasswordSchema, type ChangePasswordValues } from '@shared/account-forms';
import { MIN_PASSWORD_LENGTH } from '@shared/constants';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { PasswordField } from '@/components/ui/password-field';
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

const EMPTY: ChangePasswordValues = { current_password: '', new_password: '', confirm_new_password: '' };

/**
 * Settings' 'Change password' section (docs/product.md#2-screens-and-routes, #5-validation-rules):
 * react-hook-form with the shared schema (shared/account-forms.ts). Submit is enabled only when
 * the schema passes: all three filled, the new one 8+ characters, the confirmation equal to it.
 */
export function ChangePasswordForm({ showHeading = false }: ChangePasswordFormProps) {
  const change = useChangePassword();
  const form = useForm<ChangePasswordValues>({ resolver: zodResolver(changePasswordSchema), mode: 'all', defaultValues: EMPTY });
  const { errors, touchedFields, isValid } = form.formState;
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState(false);
  const [next, confirmNext] = useWatch({ control: form.control, name: ['new_password', 'confirm_new_password'] });

  // The banner spoke of the old value.
  const clearBanners = () => {
    setSuccess(false);
    setError(null);
  };

  const submit = form.handleSubmit((values) => {
    clearBanners();
    change.mutate(values, {
      onSuccess: () => {
        setSuccess(true);
        form.reset(EMPTY);
      },
      onError: (failure) => setError(changePasswordErrorMessage(failure)),
    });
  });

  return (
    <form
      className="form change-password"
      onSubmit={submit}
      noValidate
      aria-labelledby={showHeading ? 'change-password-heading' : undefined}
      aria-label={showHeading ? undefined : 'Change password'}
    >
      {showHeading ? <h2 id="change-password-heading">Change password</h2> : null}
      <FormAlert>{error}</FormAlert>
      {success ? <FormAlert tone="success">{changePasswordTexts.success}</FormAlert> : null}
      <PasswordField
        label="Current password"
        autoComplete="current-password"
        {...form.register('current_password', { onChange: clearBanners })}
        error={touchedFields.current_password ? errors.current_password?.message : undefined}
        required
      />
      <PasswordField
        label="New password"
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        {...form.register('new_password', { onChange: clearBanners, deps: ['confirm_new_password'] })}
        // Length is judged once the user leaves the field, not on the first keystroke.
        error={touchedFields.new_password && next ? errors.new_password?.message : undefined}
        required
      />
      <LazyPasswordStrength password={next} />
      <PasswordField
        label="Confirm new password"
        autoComplete="new-password"
        {...form.register('confirm_new_password', { onChange: clearBanners })}
        error={confirmNext ? errors.confirm_new_password?.message : undefined}
        required
      />
      <div className="form__actions">
        <Button type="submit" disabled={!isValid || change.isPending}>
          {change.isPending ? 'Updating…' : 'Update password'}
        </Button>
      </div>
    </form>
  );
}
