import { z } from 'zod';
import { defineRoute } from '../../lib/http';
import { userAuditLog } from '../audit-log';
import { hardDeletePreview } from '../hard-delete';
import { adminPasswordReset, invalidateSessions, lockUser, restoreUser, softDeleteUser, unlockUser } from '../user-status';
import { adminCallerOf } from './caller';

/** `POST /api/admin/users/{id}/lock` → `{ ok, status, is_locked }` (already locked → 409 `already_locked`). */
export const lockRoute = defineRoute({
  handler: async (req) => ({ body: { ok: true, ...(await lockUser(req.params.id, adminCallerOf(req))) } }),
});

/** `POST /api/admin/users/{id}/unlock` (not locked → 409 `not_locked`). */
export const unlockRoute = defineRoute({
  handler: async (req) => ({ body: { ok: true, ...(await unlockUser(req.params.id, adminCallerOf(req))) } }),
});

/** `POST /api/admin/users/{id}/actions/invalidate-sessions` */
export const invalidateSessionsRoute = defineRoute({
  handler: async (req) => {
    await invalidateSessions(req.params.id, adminCallerOf(req));
    return { body: { ok: true } };
  },
});

/** `POST /api/admin/users/{id}/reset-password` → `{ delivery }` */
export const resetPasswordRoute = defineRoute({
  handler: async (req) => ({ body: await adminPasswordReset(req.params.id, adminCallerOf(req)) }),
});

/** `POST /api/admin/users/{id}/soft-delete` {reason?} → `{ status, deleted_at, deleted_reason }` */
export const softDeleteRoute = defineRoute({
  body: z.object({ reason: z.string().max(1000).nullish() }),
  handler: async (req) => ({ body: await softDeleteUser(req.params.id, req.body.reason ?? undefined, adminCallerOf(req)) }),
});

/** `POST /api/admin/users/{id}/restore` → `{ status }` */
export const restoreRoute = defineRoute({
  handler: async (req) => ({ body: await restoreUser(req.params.id, adminCallerOf(req)) }),
});

/** `GET /api/admin/users/{id}/hard-delete/preview` → `{ counts }` */
export const hardDeletePreviewRoute = defineRoute({ handler: async (req) => ({ body: await hardDeletePreview(req.params.id) }) });

/** `GET /api/admin/users/{id}/audit-logs?page&cursor` (page size fixed at 25) */
export const userAuditLogRoute = defineRoute({
  query: z.object({ page: z.string().optional(), page_size: z.string().optional(), cursor: z.string().optional() }),
  handler: async (req) => ({ body: await userAuditLog(req.params.id, req.query) }),
});
