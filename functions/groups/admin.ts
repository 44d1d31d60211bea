import { createGroupHandler } from '../lib/http';


/** Lambda entry for the `admin` endpoint group: every `admin` route of shared/routes.ts. */
export const handler = createGroupHandler('admin', {

});
