/** Business constants and limits (docs/product.md#9-business-constants-and-limits), shared by the API and the SPA. */
export const MIN_PASSWORD_LENGTH = 8;
/** OWASP: allow at least 64 characters; longer inputs are refused to bound hashing work. */
export const MAX_PASSWORD_LENGTH = 128;
export const NAME_MIN_LENGTH = 1;
export const NAME_MAX_LENGTH = 100;
export const CODE_LENGTH = 6;
export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_ATTEMPTS = 5;
export const RESET_TOKEN_TTL_MINUTES = 60;
export const ENROLL_REDIRECT_MS = 1600;
export const DEFAULT_PROGRAM_TITLE = '4-Week Career Program';
/** `off`: no reminder emails (Settings, or one click on a reminder's unsubscribe link: docs/product.md#unsubscribe). */
export const REMINDER_FREQUENCIES = ['daily', 'weekly', 'off'] as const;
export const DEFAULT_REMINDER_FREQUENCY = 'daily';
export const PAGE_SIZES = [25, 50, 100] as const;
export const USERS_DEFAULT_PAGE_SIZE = 25;
export const AUDIT_DEFAULT_PAGE_SIZE = 50;
/**
 * Highest `page` an admin list serves without a cursor: such a page is read by walking the pages
 * before it, so deeper pages need the cursor (the console keeps them in the address).
 */
export const MAX_PAGE_WITHOUT_CURSOR = 5;
export const USER_AUDIT_PAGE_SIZE = 25;
export const SEARCH_DEBOUNCE_MS = 350;
export const ADMIN_REFRESH_MS = 60_000;
export const DEFAULT_RETENTION_DAYS = 30;
export const AUDIT_PREVIEW_CHARS = 160;
export const USER_AGENT_PREVIEW_CHARS = 64;
export const CHART_HEIGHT_PX = 280;

/**
 * A cookie the browser's script may read, set and cleared with the session cookie: it tells the
 * SPA a session may exist, so an anonymous page does not ask `GET /api/auth/me` only to be
 * answered 401 (docs/api.md#the-signed-in-hint). Not a credential: it carries nothing but `1`.
 */
export const SIGNED_IN_HINT_COOKIE = 'signed_in';

/**
 * Key prefix of the account exports written to an object (functions/lib/export-objects.ts); the
 * exporting function's grant covers this prefix only (infra/constructs/export-bucket.ts).
 */
export const EXPORT_OBJECT_PREFIX = 'exports/';
