import { createGroupHandler } from '../lib/http';
import { health } from './health';

/** Lambda entry for the `auth` endpoint group: every `auth` route of shared/routes.ts. */
export const handler = createGroupHandler('auth', {
  'GET /api/health': health,
});
