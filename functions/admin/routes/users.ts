import * as z from 'zod/mini';
import { accountPath, keyText } from '../../../shared/key-values';
import { defineRoute } from '../../lib/http';
import { hardDeleteUser } from '../hard-delete';
import { listUsers } from '../user-list';
import { userDetail } from '../user-detail';
import { updateProfile } from '../user-profile';
import { adminCallerOf } from '../../lib/admin-caller';

const text = z.optional(z.string());
/** The users search (also the CSV export's): free text that becomes part of a key (shared/key-values.ts). */
export const searchText = z.optional(keyText(1000));

/**
 * `GET /api/admin/users?page&page_size&cursor&query&filter&status&stalled_at` (unknown values fall
 * back to defaults; a bad cursor → 400 `invalid_cursor`; an unknown stalled_at module → 400
 * `unknown_module`, stalled_at with query or filter → 400 `filter_not_combinable`).
 */
export const listUsersRoute = defineRoute({
  // the search text becomes the key of the search items it reads (USERSEARCH#<first character>)
  query: z.object({ page: text, page_size: text, cursor: text, query: searchText, filter: text, status: text, stalled_at: text }),
  handler: async (req) => ({ body: await listUsers(req.query) }),
});

/** `GET /api/admin/users/{id}` */
export const userDetailRoute = defineRoute({
  params: accountPath,
  handler: async (req) => ({ body: await userDetail(req.params.id) }),
});

/** `PATCH /api/admin/users/{id}` → the updated detail. Field checks (with the product's codes, docs/product.md#8-error-catalogue) are the domain's. */
export const updateUserRoute = defineRoute({
  params: accountPath,
  body: z.object({ first_name: z.optional(z.unknown()), last_name: z.optional(z.unknown()), email: z.optional(z.unknown()) }),
  handler: async (req) => {
    await updateProfile(req.params.id, req.body, adminCallerOf(req));
    return { body: await userDetail(req.params.id) };
  },
});

/** `DELETE /api/admin/users/{id}?confirm_email=` */
export const hardDeleteRoute = defineRoute({
  params: accountPath,
  query: z.object({ confirm_email: text }),
  handler: async (req) => {
    const result = await hardDeleteUser(req.params.id, req.query.confirm_email, adminCallerOf(req));
    // 202: a heavy account's purge goes on in the background (GET …/hard-delete/status follows it)
    return { status: result.deleted ? 200 : 202, body: result };
  },
});
