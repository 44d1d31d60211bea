import { deleteAccountRoute } from '../accounts/routes/account-data';
import { changePassword } from '../accounts/routes/change-password';
import { createGroupHandler } from '../lib/http';
import { exportAccountRoute } from './account-export';
import {
  certificateRoute,
  dashboardRoute,
  dashboardStateRoute,
  enrollRoute,
  getNotificationsRoute,
  modulePageRoute,
  setNotificationsRoute,
  taskSaveRoute,
} from '../program/routes';
import { setSubscriptionRoute, subscriptionRoute, unsubscribePageRoute, unsubscribeRoute } from '../program/unsubscribe-routes';

/**
 * Lambda entry for the `learner` endpoint group: every `learner` route of shared/routes.ts.
 * `POST /api/settings/password` is implemented by the accounts feature.
 */
export const handler = createGroupHandler('learner', {
  'POST /api/enroll': enrollRoute,
  'GET /api/dashboard': dashboardRoute,
  'GET /api/dashboard/state': dashboardStateRoute,
  'GET /api/modules/{slug}': modulePageRoute,
  'PUT /api/modules/{slug}/tasks/{task_id}': taskSaveRoute,
  'GET /api/settings/notifications': getNotificationsRoute,
  'POST /api/settings/notifications': setNotificationsRoute,
  'POST /api/settings/password': changePassword,
  'GET /api/account/export': exportAccountRoute,
  'POST /api/account/delete': deleteAccountRoute,
  'GET /api/certificate': certificateRoute,
  'GET /api/notifications/unsubscribe': unsubscribePageRoute,
  'POST /api/notifications/unsubscribe': unsubscribeRoute,
  'GET /api/notifications/subscription': subscriptionRoute,
  'POST /api/notifications/subscription': setSubscriptionRoute,
});
