import { auditLogRoute } from '../admin/routes/audit-logs';
import { exportAuditLogRoute, exportUsersRoute } from '../admin/routes/exports';
import { forceCompleteModuleRoute, lockModuleRoute, reopenModuleRoute, unlockModuleRoute } from '../admin/routes/modules';
import {
  exportVersionRoute,
  getDraftRoute,
  getVersionRoute,
  importRoute,
  listVersionsRoute,
  publishRoute,
  restoreVersionRoute,
  saveDraftRoute,
} from '../admin/routes/program';
import { summary } from '../admin/routes/summary';
import {
  hardDeletePreviewRoute,
  invalidateSessionsRoute,
  lockRoute,
  resetPasswordRoute,
  revokeCertificateRoute,
  restoreRoute,
  softDeleteRoute,
  unlockRoute,
  userAuditLogRoute,
} from '../admin/routes/user-actions';
import { purgeStatusRoute } from '../admin/routes/purge';
import { hardDeleteRoute, listUsersRoute, updateUserRoute, userDetailRoute } from '../admin/routes/users';
import { createGroupHandler } from '../lib/http';

/** Lambda entry for the `admin` endpoint group: every `admin` route of shared/routes.ts. */
export const handler = createGroupHandler('admin', {
  'GET /api/admin/summary': summary,
  'GET /api/admin/users': listUsersRoute,
  'GET /api/admin/users/export.csv': exportUsersRoute,
  'GET /api/admin/users/{id}': userDetailRoute,
  'PATCH /api/admin/users/{id}': updateUserRoute,
  'DELETE /api/admin/users/{id}': hardDeleteRoute,
  'POST /api/admin/users/{id}/lock': lockRoute,
  'POST /api/admin/users/{id}/unlock': unlockRoute,
  'POST /api/admin/users/{id}/actions/invalidate-sessions': invalidateSessionsRoute,
  'POST /api/admin/users/{id}/soft-delete': softDeleteRoute,
  'POST /api/admin/users/{id}/restore': restoreRoute,
  'GET /api/admin/users/{id}/hard-delete/preview': hardDeletePreviewRoute,
  'GET /api/admin/users/{id}/hard-delete/status': purgeStatusRoute,
  'GET /api/admin/users/{id}/audit-logs': userAuditLogRoute,
  'POST /api/admin/users/{id}/reset-password': resetPasswordRoute,
  'POST /api/admin/users/{id}/certificate/revoke': revokeCertificateRoute,
  'GET /api/admin/audit-logs': auditLogRoute,
  'GET /api/admin/audit-logs/export.csv': exportAuditLogRoute,
  'POST /api/admin/modules/unlock': unlockModuleRoute,
  'POST /api/admin/modules/force-complete': forceCompleteModuleRoute,
  'POST /api/admin/modules/reopen': reopenModuleRoute,
  'POST /api/admin/modules/lock': lockModuleRoute,
  'GET /api/admin/program/draft': getDraftRoute,
  'PUT /api/admin/program/draft': saveDraftRoute,
  'POST /api/admin/program/import': importRoute,
  'POST /api/admin/program/publish': publishRoute,
  'GET /api/admin/program/versions': listVersionsRoute,
  'GET /api/admin/program/versions/{version}': getVersionRoute,
  'GET /api/admin/program/versions/{version}/export': exportVersionRoute,
  'POST /api/admin/program/versions/{version}/restore': restoreVersionRoute,
});
