import * as z from 'zod/mini';
import { accountPath } from '../../../shared/key-values';
import { defineRoute } from '../../lib/http';
import { userAuditLog } from '../audit-log';
import { hardDeletePreview } from '../hard-delete-preview';
import { adminPasswordReset, invalidateSessions, lockUser, restoreUser, softDeleteUser, unlockUser } from '../user-status';
import { revokeCertificate } from '../certificate-revoke';
import { adminCallerOf } from '../../lib/admin-caller';
import { removeUserPasskey, userPasskeys } from '../user-passkeys';

/** `POST /api/admin/users/{id}/lock` → `{ ok, status, is_locked }` (already locked → 409 `already_locked`). */
export const lockRoute = defineRoute({
  params: accountPath,
  handler: async (req) => ({ body: { ok: true, ...(await lockUser(req.params.id, adminCallerOf(req))) } }),
});

/** `POST /api/admin/users/{id}/unlock` (not locked → 409 `not_locked`). */
export const unlockRoute = defineRoute({
  params: accountPath,
  handler: async (req) => ({ body: { ok: true, ...(await unlockUser(req.params.id, adminCallerOf(req))) } }),
});

/** `POST /api/admin/users/{id}/actions/invalidate-sessions` */
export const invalidateSessionsRoute = defineRoute({
  params: accountPath,
  handler: async (req) => {
    await invalidateSessions(req.params.id, adminCallerOf(req));
    return { body: { ok: true } };
  },
});

/** `POST /api/admin/users/{id}/reset-password` → `{ delivery }` */
export const resetPasswordRoute = defineRoute({
  params: accountPath,
  handler: async (req) => ({ body: await adminPasswordReset(req.params.id, adminCallerOf(req)) }),
});

/** `POST /api/admin/users/{id}/soft-delete` {reason?} → `{ status, deleted_at, deleted_reason }` */
export const softDeleteRoute = defineRoute({
  params: accountPath,
  body: z.object({ reason: z.nullish(z.string().check(z.maxLength(1000))) }),
  handler: async (req) => ({ body: await softDeleteUser(req.params.id, req.body.reason ?? undefined, adminCallerOf(req)) }),
});

/** `POST /api/admin/users/{id}/restore` → `{ status }` */
export const restoreRoute = defineRoute({
  params: accountPath,
  handler: async (req) => ({ body: await restoreUser(req.params.id, adminCallerOf(req)) }),
});

/** `GET /api/admin/users/{id}/hard-delete/preview` → `{ counts }` */
export const hardDeletePreviewRoute = defineRoute({
  params: accountPath,
  handler: async (req) => ({ body: await hardDeletePreview(req.params.id) }),
});

/** `GET /api/admin/users/{id}/audit-logs?page&cursor` (page size fixed at 25) */
export const userAuditLogRoute = defineRoute({
  params: accountPath,
  query: z.object({ page: z.optional(z.string()), page_size: z.optional(z.string()), cursor: z.optional(z.string()) }),
  handler: async (req) => ({ body: await userAuditLog(req.params.id, req.query) }),
});

/** `POST /api/admin/users/{id}/certificate/revoke` {reason?} → `{ ok, verification_code, revoked_at }` */
export const revokeCertificateRoute = defineRoute({
  params: accountPath,
  body: z.object({ reason: z.nullish(z.string().check(z.maxLength(1000))) }),
  handler: async (req) => ({
    body: { ok: true, ...(await revokeCertificate(req.params.id, req.body.reason ?? undefined, adminCallerOf(req))) },
  }),
});

/** `GET /api/admin/users/{id}/passkeys` → `{ items: [{ id, name, created_at, last_used_at, backed_up }] }` */
export const userPasskeysRoute = defineRoute({
  params: accountPath,
  handler: async (req) => ({ body: await userPasskeys(req.params.id) }),
});

/** `DELETE /api/admin/users/{id}/passkeys/{passkey_id}` → `{ ok: true }` (unknown passkey → 404 `passkey_not_found`) */
export const removeUserPasskeyRoute = defineRoute({
  params: accountPath,
  handler: async (req) => {
    await removeUserPasskey(req.params.id, req.params.passkey_id ?? '', adminCallerOf(req));
    return { body: { ok: true } };
  },
});
