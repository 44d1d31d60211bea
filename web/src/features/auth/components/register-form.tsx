import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { MIN_PASSWORD_LENGTH, NAME_MAX_LENGTH } from '../../../../../shared/constants';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { useRegister, type RegisterInput } from '../api/register';
import {
  CORRECT_FIELDS,
  registerErrorView,
  registerTexts,
  type RegisterField,
} from '../utils/error-messages';
import { readPendingEmail, storePendingEmail } from '../utils/pending-verification';
import { LazyPasswordStrength } from './lazy-password-strength';
import { RESEND_WAIT_SECONDS, VerifyEmailStep } from './verify-email-step';

type FieldErrors = Partial<Record<RegisterField, string>>;

const FIELD_ORDER: RegisterField[] = ['first_name', 'last_name', 'email', 'password', 'passwordConfirm'];

/** docs/product.md#5-validation-rules checks, run before sending so most mistakes never need a round trip. */
export function validateRegistration(input: RegisterInput): FieldErrors {
  const errors: FieldErrors = {};
  const first = input.first_name.trim();
  const last = input.last_name.trim();
  if (!first) errors.first_name = registerTexts.firstNameRequired;
  else if (first.length > NAME_MAX_LENGTH) errors.first_name = registerTexts.firstNameInvalid;
  if (!last) errors.last_name = registerTexts.lastNameRequired;
  else if (last.length > NAME_MAX_LENGTH) errors.last_name = registerTexts.lastNameInvalid;
  if (!input.email.trim()) errors.email = registerTexts.emailRequired;
  if (input.password.length < MIN_PASSWORD_LENGTH) errors.password = registerTexts.weakPassword;
  if (input.password !== input.passwordConfirm) errors.passwordConfirm = registerTexts.passwordMismatch;
  return errors;
}

type Step = 'form' | 'verify' | 'complete';
/** The step lives in the address (`?step=verify`), so a reload or Back keeps it (docs/journeys.md). */
const stepOf = (value: string | null): Step => (value === 'verify' || value === 'complete' ? value : 'form');

/** Three steps (docs/product.md#2-screens-and-routes Register, #4-states-and-transitions): the form, the emailed verification code, then done. */
export function RegisterForm() {
  const register = useRegister();
  const [searchParams, setSearchParams] = useSearchParams();
  const step = stepOf(searchParams.get('step'));
  const [values, setValues] = useState<RegisterInput>(() => ({ first_name: '', last_name: '', email: readPendingEmail(), password: '', passwordConfirm: '' }));
  const [showPasswords, setShowPasswords] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [justSent, setJustSent] = useState(false);
  const inputs = useRef<Partial<Record<RegisterField, HTMLInputElement | null>>>({});
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
  const set = (field: RegisterField) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
    // The banner spoke of the old value: it goes as soon as the field changes.
    setError(null);
  };
  const focusFirstInvalid = (errors: FieldErrors) => {
    const first = FIELD_ORDER.find((field) => errors[field]);
    if (first) inputs.current[first]?.focus();
  };

  const submitForm = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setNotice(null);
    const errors = validateRegistration(values);
    if (Object.keys(errors).length) {
      setFieldErrors(errors);
      setError(CORRECT_FIELDS);
      focusFirstInvalid(errors);
      return;
    }
    const input = { ...values, first_name: values.first_name.trim(), last_name: values.last_name.trim(), email: values.email.trim() };
    register.mutate(input, {
      onSuccess: () => {
        setValues((current) => ({ ...current, password: '', passwordConfirm: '' }));
        toVerify(input.email);
      },
      onError: (failure) => {
        const view = registerErrorView(failure);
        if (view.verificationPending) {
          setValues((current) => ({ ...current, password: '', passwordConfirm: '' }));
          setNotice(view.message ?? null);
          toVerify(input.email);
          return;
        }
        setFieldErrors(view.fields);
        setError(view.message ?? null);
        focusFirstInvalid(view.fields);
      },
    });
  };

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
          setValues({ first_name: '', last_name: '', email: '', password: '', passwordConfirm: '' });
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
          ref={(el) => void (inputs.current.first_name = el)}
          label="First name"
          name="first_name"
          autoComplete="given-name"
          maxLength={NAME_MAX_LENGTH}
          value={values.first_name}
          onChange={set('first_name')}
          error={fieldErrors.first_name}
          required
        />
        <TextField
          ref={(el) => void (inputs.current.last_name = el)}
          label="Last name"
          name="last_name"
          autoComplete="family-name"
          maxLength={NAME_MAX_LENGTH}
          value={values.last_name}
          onChange={set('last_name')}
          error={fieldErrors.last_name}
          required
        />
      </div>
      <TextField
        ref={(el) => void (inputs.current.email = el)}
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        value={values.email}
        onChange={set('email')}
        error={fieldErrors.email}
        required
      />
      <PasswordField
        ref={(el) => void (inputs.current.password = el)}
        label="Password"
        name="password"
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        value={values.password}
        onChange={set('password')}
        error={fieldErrors.password}
        visible={showPasswords}
        onVisibleChange={setShowPasswords}
        alsoControls={['register-password-confirm']}
        required
      />
      <LazyPasswordStrength password={values.password} userInputs={[values.email, values.first_name, values.last_name]} />
      <PasswordField
        ref={(el) => void (inputs.current.passwordConfirm = el)}
        inputId="register-password-confirm"
        label="Confirm password"
        name="passwordConfirm"
        autoComplete="new-password"
        value={values.passwordConfirm}
        onChange={set('passwordConfirm')}
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
