import * as z from 'zod/mini';
import { checkName, isEmailShape, passwordLengthOk } from './account-rules';

/**
 * One zod schema per account form, built on the rules of shared/account-rules.ts (the same
 * rules the API applies). zod/mini keeps the web bundle small. The messages are the forms' own
 * texts (docs/product.md#5-validation-rules): the form shows each field's message.
 */
export const CHANGE_PASSWORD_MESSAGES = {
  currentRequired: 'Current password is required.',
  tooShort: 'New password must be at least 8 characters.',
  mismatch: 'Passwords do not match.',
} as const;

/** Settings' "Change password": current (any), new (8 to 128 characters), confirmation equal to new. */
export const changePasswordSchema = z
  .object({
    current_password: z.string().check(z.minLength(1, CHANGE_PASSWORD_MESSAGES.currentRequired)),
    new_password: z.string().check(z.refine(passwordLengthOk, CHANGE_PASSWORD_MESSAGES.tooShort)),
    confirm_new_password: z.string(),
  })
  .check(
    z.refine((form) => form.new_password === form.confirm_new_password, {
      message: CHANGE_PASSWORD_MESSAGES.mismatch,
      path: ['confirm_new_password'],
    }),
  );

export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;

export const RESET_PASSWORD_MESSAGES = {
  tooShort: 'Password must be at least 8 characters long.',
  mismatch: 'Passwords must match.',
} as const;

/** "Reset password": a new password of 8 to 128 characters, confirmed. */
export const resetPasswordSchema = z
  .object({
    password: z.string().check(z.refine(passwordLengthOk, RESET_PASSWORD_MESSAGES.tooShort)),
    password2: z.string(),
  })
  .check(z.refine((form) => form.password === form.password2, { message: RESET_PASSWORD_MESSAGES.mismatch, path: ['password2'] }));

export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>;

export const FORGOT_PASSWORD_MESSAGES = { emailRequired: 'Email is required.' } as const;

/**
 * "Forgot password": an email is required; its shape is not checked here, so the answer stays
 * the same whoever asks (the server answers alike for any address, and 400 `invalid_email` for
 * what is none, docs/security.md#values-that-become-keys).
 */
export const forgotPasswordSchema = z.object({
  email: z.pipe(z.string().check(z.trim()), z.string().check(z.minLength(1, FORGOT_PASSWORD_MESSAGES.emailRequired))),
});

export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>;

export const REGISTER_MESSAGES = {
  firstNameRequired: 'First name is required.',
  firstNameInvalid: 'First name must be 1-100 characters.',
  lastNameRequired: 'Last name is required.',
  lastNameInvalid: 'Last name must be 1-100 characters.',
  emailRequired: 'Email is required.',
  weakPassword: 'Password must be at least 8 characters.',
  passwordMismatch: 'Passwords do not match.',
} as const;

const nameField = (required: string, invalid: string) =>
  z.string().check(
    z.refine((value) => checkName(value) !== 'required', required),
    z.refine((value) => checkName(value) !== 'invalid', invalid),
  );

/**
 * "Register": the checks the form runs before sending (the email's shape, the common-password
 * list and the email-as-password rule are the server's: checkRegistration).
 */
export const registerSchema = z
  .object({
    first_name: nameField(REGISTER_MESSAGES.firstNameRequired, REGISTER_MESSAGES.firstNameInvalid),
    last_name: nameField(REGISTER_MESSAGES.lastNameRequired, REGISTER_MESSAGES.lastNameInvalid),
    email: z.string().check(z.refine((value) => value.trim() !== '', REGISTER_MESSAGES.emailRequired)),
    password: z.string().check(z.refine(passwordLengthOk, REGISTER_MESSAGES.weakPassword)),
    passwordConfirm: z.string(),
  })
  .check(
    z.refine((form) => form.password === form.passwordConfirm, { message: REGISTER_MESSAGES.passwordMismatch, path: ['passwordConfirm'] }),
  );

export type RegisterValues = z.infer<typeof registerSchema>;

/**
 * "Log in", first step: both fields filled (the email trimmed); the form's button stays disabled
 * until they are, so these checks have no message of their own. Whether they match an account
 * is the server's answer (one message for a wrong email or password).
 */
export const loginSchema = z.object({
  email: z.pipe(z.string().check(z.trim()), z.string().check(z.minLength(1))),
  password: z.string().check(z.minLength(1)),
});

export type LoginValues = z.infer<typeof loginSchema>;

/** A field of the admin's profile form: trimmed, then checked with the API's own rule and error code. */
const profileName = (field: 'first_name' | 'last_name') =>
  z.pipe(
    z.string().check(z.trim()),
    z.string().check(
      z.refine((value) => checkName(value) !== 'required', `${field}_required`),
      z.refine((value) => checkName(value) !== 'invalid', `${field}_invalid`),
    ),
  );

/**
 * The admin console's "Edit profile" (PATCH /api/admin/users/:id): the checks the API runs
 * (functions/admin/user-profile.ts), with its error codes as messages, because the console shows
 * an admin the server's code for a refused change (docs/product.md#8-error-catalogue).
 */
export const adminProfileSchema = z.object({
  first_name: profileName('first_name'),
  last_name: profileName('last_name'),
  email: z.pipe(z.string().check(z.trim()), z.string().check(z.minLength(1, 'email_required'), z.refine(isEmailShape, 'invalid_email'))),
});

export type AdminProfileValues = z.infer<typeof adminProfileSchema>;

/** The API checks the fields in this order and answers the first problem: so does the form. */
export const ADMIN_PROFILE_FIELDS = ['first_name', 'last_name', 'email'] as const;
