/**
 * What the OpenAPI reference (docs/api.md#6-the-openapi-document) knows about a route beyond its
 * request schemas: its success answers and the error codes it can give. One `RouteDoc` per route
 * key in the group files beside this one; `functions/api-docs/openapi.ts` joins them with the
 * route table and the handlers' own zod schemas.
 *
 * These schemas are documentation, test oracles and the source of the response types
 * (shared/admin-types.ts derives them with `z.output`): no Lambda bundle imports this folder at
 * run time, only its types (bundles stay small, docs/lean-builds.md). Like the rest of shared/
 * they are written with zod/mini (test/unit/zod-flavour.test.ts).
 */
import * as z from 'zod/mini';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 501 | 502 | 503;

export interface RouteDoc {
  /** One line for the reference. */
  summary: string;
  /** Success status → the body's schema (every route has at least one). */
  responses: Partial<Record<200 | 201 | 202 | 204 | 303, z.ZodMiniType>>;
  /**
   * The route's own error codes by status. The chain's codes are added by the generator: 400
   * `invalid_request` (a body or query schema), `invalid_json`, 403 `bad_origin`, 415, 413
   * (state-changing calls), 401/403 (access), 400 `invalid_path` (path parameters), 500, 503.
   */
  errors?: Partial<Record<ErrorStatus, readonly string[]>>;
  /**
   * Details an error answer of the route may carry beside `error` (and the shared `fields`,
   * `retry_after`), by property name, e.g. `attempts_left` on a wrong code.
   */
  details?: Record<string, z.ZodMiniType>;
  /**
   * Headers of the success answer a client reads, by name, with what each carries (Set-Cookie,
   * Location, Content-Disposition…). The generator adds the session cookie's renewal on routes
   * that need a session, and Retry-After on 429 and 503.
   */
  headers?: Record<string, string>;
  /**
   * The input the route accepts, where its handler's zod schema is more lenient than the route:
   * the handler parses loosely to answer the product's own codes (`missing_fields`,
   * `first_name_required`…), or declares no schema at all. Documented here, it replaces the
   * handler's schema in the reference.
   */
  body?: z.ZodMiniType;
  query?: z.ZodMiniType;
  /** Answers that are not JSON objects of the usual kind (e.g. a download). */
  description?: string;
  /**
   * The success answer's media type when it is not JSON, e.g. `'text/csv'` for an export; its
   * schema then describes the text (`z.string()`). Error answers stay JSON.
   */
  contentType?: string;
}

export const ok = z.object({ ok: z.literal(true) });
export const isoTime = z.string().check(z.describe('ISO 8601 time, UTC'));
export const day = z.string().check(z.describe('YYYY-MM-DD (UTC)'));

/** Every error answer: `{ error: <code>, ...details }` (functions/lib/errors.ts). */
export const errorBody = z.looseObject({
  error: z.string(),
  fields: z.optional(z.array(z.string())),
  retry_after: z.optional(z.number()),
});

export const publicUser = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  role: z.enum(['learner', 'admin']),
  verified: z.boolean(),
});

export const moduleState = z.enum(['open', 'locked', 'completed']);
export const learnerModule = z.object({
  module_id: z.string(),
  title: z.string(),
  position: z.number(),
  state: moduleState,
  slug: z.string(),
});
export const openModule = z.extend(learnerModule, { state: z.literal('open'), week_number: z.number() });
export const moduleLink = z.object({ slug: z.string(), title: z.string(), week_number: z.number() });
export const learnerTask = z.object({
  task_id: z.string(),
  type: z.enum(['checkbox', 'text']),
  label: z.string(),
  hint: z.string(),
  required: z.boolean(),
  min_items: z.optional(z.number().check(z.describe('a list task: done only once the answer holds this many items, one per line'))),
  done: z.boolean(),
  answer: z.optional(z.string()),
  updated_at: z.nullable(z.string()),
});

/** The paged lists' common answer: cursor paging (docs/api.md#4-paging, docs/scale-reads.md). */
export const page = <T extends z.ZodMiniType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number(),
    /** True when `total` is a bound ("10,000+"), not an exact count. */
    total_is_estimate: z.boolean(),
    has_next: z.boolean(),
    page: z.number(),
    page_size: z.number(),
    /** Opaque; pass as `cursor` for the next page. Null on the last page. */
    next_cursor: z.nullable(z.string()),
    /** The read budget ended before the page was full (a rare filter): Next continues. */
    truncated: z.optional(z.boolean()),
  });

/** One audit entry as the admin API returns it (docs/product.md#3-entities-and-their-fields "Audit entry"). */
export const auditEntry = z.object({
  id: z.string(),
  created_at: z.nullish(z.string()),
  action: z.nullish(z.string()),
  old_values: z.optional(z.unknown()),
  new_values: z.optional(z.unknown()),
  actor_email: z.nullish(z.string()),
  actor_user_id: z.nullish(z.string()),
  entity_type: z.nullish(z.string()),
  entity_id: z.nullish(z.string()),
  ip: z.nullish(z.string()),
  user_agent: z.nullish(z.string()),
});

/** What a wrong sign-in or restore code's 400 tells (the password is already proved there). */
export const CODE_ATTEMPTS = {
  attempts_left: z.number().check(z.describe('invalid_code: tries left for this code')),
  spent: z.literal(true).check(z.describe('invalid_code: the code can no longer work; ask for a new one')),
};
/** `page_needs_cursor`: the deepest page reachable by number. */
export const PAGING_DETAILS = { max_page: z.number().check(z.describe('page_needs_cursor: the last page reachable without a cursor')) };
/** A human sentence for the refusal, shown as it is. */
export const MESSAGE_DETAIL = { message: z.string().check(z.describe('a sentence for the person, shown as it is')) };
export const DOWNLOAD = 'attachment; filename="…": the answer is a file to save';

/** Login-code and sign-up throttles answer 429 with `retry_after` (docs/product.md#rate-limits). */
export const THROTTLED = ['throttled'] as const;
/** Calls that send an account email can meet SES refusing or being down. */
export const EMAIL_ERRORS = { 502: ['email_rejected'], 503: ['email_unavailable'] } as const;
