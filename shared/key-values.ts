import * as z from 'zod/mini';
import { isEmailShape, MAX_EMAIL_LENGTH } from './account-rules';
import { PROGRAM_LIMITS } from './program-authoring';

/**
 * The values a request names that become part of a DynamoDB key, one rule per kind, written once
 * (docs/security.md#values-that-become-keys). A value outside its rule names nothing the product
 * ever issued: it is refused before any read or write, never sent to DynamoDB, where a key over
 * 2,048 bytes (a sort key over 1,024) is a ValidationException and a control character or line
 * break escapes IAM's key patterns (`USER#*` does not match a line break): either would be a 500.
 *
 * The route schemas (functions/…/routes) and the domain checks use these; the reference
 * (shared/api-schemas) shows the same rules.
 */

/** An account's id as the product issues it (`randomUUID`, functions/lib/users.ts: lower-case hex). */
export const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/**
 * The ids the product draws from random bytes, base64url: sign-in challenges, passkey
 * challenges, sessions (18 bytes: 24 characters). The bounds leave room, never a key's size.
 */
export const RANDOM_ID = /^[\w-]{16,64}$/;
/** A passkey's id: the SHA-256 of its credential id, base64url (functions/accounts/passkey-records.ts). */
export const PASSKEY_ID = /^[\w-]{43}$/;
/** The characters of a module's or a task's id in the program content (functions/program/content.ts). */
export const CONTENT_ID_CHARS = /^[a-z0-9-]+$/;
/** The characters of a module's slug in the program content. */
export const SLUG_CHARS = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** A published version's number as a path names it (functions/program/authoring/program-versions.ts). */
export const VERSION_NUMBER = /^\d{1,6}$/;

export const isUserId = (value: unknown): value is string => typeof value === 'string' && USER_ID.test(value);
export const isRandomId = (value: unknown): value is string => typeof value === 'string' && RANDOM_ID.test(value);
export const isPasskeyId = (value: unknown): value is string => typeof value === 'string' && PASSKEY_ID.test(value);
/** A module's or a task's id: the content's characters, at most PROGRAM_LIMITS.idChars of them. */
export const isContentId = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= PROGRAM_LIMITS.idChars && CONTENT_ID_CHARS.test(value);
export const isSlug = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= PROGRAM_LIMITS.idChars && SLUG_CHARS.test(value);

/**
 * The error code a field's rule answers instead of the chain's `invalid_request`, where the
 * product has one (docs/product.md#api-error-codes): functions/lib/http.ts reads it from the
 * issue's message.
 */
export const INVALID_EMAIL = 'invalid_email';
export const FIELD_ERROR_CODES: readonly string[] = [INVALID_EMAIL];

/**
 * An email address that is looked up, counted or stored by (EMAIL#<address>, the rate-limit
 * windows, the sign-in back-off): trimmed, then the product's email rule (one @, a dot in the
 * domain, no spaces, no control characters, at most 254 characters); else 400 `invalid_email`.
 */
export const keyEmail = z.string().check(
  z.trim(),
  z.maxLength(MAX_EMAIL_LENGTH, { error: INVALID_EMAIL }),
  z.refine((value) => isEmailShape(value), { error: INVALID_EMAIL }),
  z.describe('an email address: one @, a dot in the domain, no spaces or control characters, at most 254 characters (trimmed)'),
);

/**
 * Free text that becomes part of a key (the audit log's filters, the user search): at most `max`
 * characters, none of them a control character or a line or paragraph separator.
 */
export const keyText = (max: number) =>
  z
    .string()
    .check(
      z.maxLength(max),
      z.regex(/^[^\p{Cc}\u2028\u2029]*$/u),
      z.describe(`at most ${max} characters, no control characters or line breaks`),
    );

/** A path's account id: a UUID. */
export const userIdParam = z.string().check(z.regex(USER_ID), z.describe('an account id (UUID)'));
/** The path of the admin routes about one account (`/api/admin/users/{id}…`). */
export const accountPath = z.object({ id: userIdParam });
/** A path's module slug. */
export const slugParam = z
  .string()
  .check(z.maxLength(PROGRAM_LIMITS.idChars), z.regex(SLUG_CHARS), z.describe("a module's slug (lower-case words joined by -)"));
/** A path's task id. */
export const contentIdParam = z
  .string()
  .check(z.maxLength(PROGRAM_LIMITS.idChars), z.regex(CONTENT_ID_CHARS), z.describe('a task id (a-z, 0-9, -)'));
