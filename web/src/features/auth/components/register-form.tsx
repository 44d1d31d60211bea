import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { registerSchema, type RegisterValues } from '@shared/account-forms';
import { MIN_PASSWORD_LENGTH, NAME_MAX_LENGTH } from '@shared/constants';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { PasswordField } from '@/components/ui/password-field';
import { TextField } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { useRegister } from '../api/register';
import { CORRECT_FIELDS, registerErrorView, registerTexts, type RegisterField } from '../utils/error-messages';
import { readPendingEmail, storePendingEmail } from '../utils/pending-verification';
import { LazyPasswordStrength } from './lazy-password-strength';
import { RESEND_WAIT_SECONDS, VerifyEmailStep } from './verify-email-step';

type FieldErrors = Partial<Record<RegisterField, string>>;

const FIELD_ORDER: RegisterField[] = ['first_name', 'last_name', 'email', 'password', 'passwordConfirm'];

const EMPTY: RegisterValues = { first_name: '', last_name: '', email: '', password: '', passwordConfirm: '' };

type Step = 'form' | 'verify' | 'complete';
/** The step lives in the address (`?step=verify`), so a reload or Back keeps it (docs/product.md#10-journeys). */
const stepOf = (value: string | null): Step => (value === 'verify' || value === 'complete' ? value : 'form');

/** Three steps (docs/product.md#2-screens-and-routes Register, #4-states-and-transitions): the form, the emailed verification code, then done. */
export function RegisterForm() {
  const register = useRegister();
  const [searchParams, setSearchParams] = useSearchParams();
  const step = stepOf(searchParams.get('step'));
  // docs/product.md#5-validation-rules checks (shared/account-forms.ts), run on submit so most
  // mistakes never need a round trip; a field's message goes as soon as it changes.
  const [initial] = useState<RegisterValues>(() => ({ ...EMPTY, email: readPendingEmail() }));
  const form = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: initial,
    shouldFocusError: false,
  });
  const values: RegisterValues = { ...initial, ...useWatch({ control: form.control }) };
  const fieldErrors: FieldErrors = Object.fromEntries(FIELD_ORDER.map((name) => [name, form.formState.errors[name]?.message]));
  const [showPasswords, setShowPasswords] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [justSent, setJustSent] = useState(false);
  const doneRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (step === 'complete') doneRef.current?.focus();
  }, [step]);

  const goTo = (next: Step) => setSearchParams(next === 'form' ? {} : { step: next });
  const toVerify = (email: string) => {
    storePendingEmail(email);
    setJustSent(true);
    goTo('verify');
  };

  const passwordsDiffer = values.password !== values.passwordConfirm;
  const field = (name: RegisterField) =>
    form.register(name, {
      onChange: () => {
        form.clearErrors(name);
        // The banner spoke of the old value: it goes as soon as the field changes.
        setError(null);
      },
    });
  const focusFirstInvalid = (errors: FieldErrors) => {
    const first = FIELD_ORDER.find((name) => errors[name]);
    if (first) form.setFocus(first);
  };
  const forgetPasswords = () => {
    form.setValue('password', '');
    form.setValue('passwordConfirm', '');
  };

  const submitForm = form.handleSubmit(
    (checked) => {
      setError(null);
      setNotice(null);
      const input = { ...checked, first_name: checked.first_name.trim(), last_name: checked.last_name.trim(), email: checked.email.trim() };
      register.mutate(input, {
        onSuccess: () => {
          forgetPasswords();
          toVerify(input.email);
        },
        onError: (failure) => {
          const view = registerErrorView(failure);
          if (view.verificationPending) {
            forgetPasswords();
            setNotice(view.message ?? null);
            toVerify(input.email);
            return;
          }
          for (const name of FIELD_ORDER) if (view.fields[name]) form.setError(name, { message: view.fields[name] });
          setError(view.message ?? null);
          focusFirstInvalid(view.fields);
        },
      });
    },
    (errors) => {
      setNotice(null);
      setError(CORRECT_FIELDS);
      focusFirstInvalid(Object.fromEntries(FIELD_ORDER.map((name) => [name, errors[name]?.message])));
    },
  );

  if (step === 'complete') {
    return (
      <section className="card form" aria-labelledby="register-done-heading">
        <h2 id="register-done-heading" ref={doneRef} tabIndex={-1}>
          Email verified
        </h2>
        <FormAlert tone="success">Your email is verified. You can now log in.</FormAlert>
        <div className="form__actions">
          <Link className="button button--primary" to={paths.login}>
            Go to login
          </Link>
        </div>
      </section>
    );
  }

  if (step === 'verify') {
    return (
      <VerifyEmailStep
        email={values.email.trim()}
        notice={notice}
        initialWait={justSent ? RESEND_WAIT_SECONDS : 0}
        onVerified={() => {
          storePendingEmail('');
          goTo('complete');
        }}
        onStartOver={() => {
          storePendingEmail('');
          setNotice(null);
          form.reset(EMPTY);
          goTo('form');
        }}
      />
    );
  }

  return (
    <form className="card form" onSubmit={submitForm} noValidate aria-label="Register">
      <FormAlert>{error}</FormAlert>
      <div className="form__row">
        <TextField
          label="First name"
          autoComplete="given-name"
          maxLength={NAME_MAX_LENGTH}
          {...field('first_name')}
          error={fieldErrors.first_name}
          required
        />
        <TextField
          label="Last name"
          autoComplete="family-name"
          maxLength={NAME_MAX_LENGTH}
          {...field('last_name')}
          error={fieldErrors.last_name}
          required
        />
      </div>
      <TextField label="Email" type="email" autoComplete="email" {...field('email')} error={fieldErrors.email} required />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        {...field('password')}
        error={fieldErrors.password}
        visible={showPasswords}
        onVisibleChange={setShowPasswords}
        alsoControls={['register-password-confirm']}
        required
      />
      <LazyPasswordStrength password={values.password} userInputs={[values.email, values.first_name, values.last_name]} />
      <PasswordField
        inputId="register-password-confirm"
        label="Confirm password"
        autoComplete="new-password"
        {...field('passwordConfirm')}
        // Say why Register is disabled as soon as the confirmation is typed.
        error={fieldErrors.passwordConfirm ?? (values.passwordConfirm && passwordsDiffer ? registerTexts.passwordMismatch : undefined)}
        visible={showPasswords}
        hideToggle
        required
      />
      <div className="form__actions">
        <Button type="submit" disabled={passwordsDiffer || register.isPending}>
          {register.isPending ? 'Registering…' : 'Register'}
        </Button>
      </div>
      <p>
        Already registered? <Link to={paths.login}>Log in</Link>
      </p>
    </form>
  );
}
