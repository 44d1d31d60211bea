import { createGroupHandler } from '../lib/http';


/** Lambda entry for the `learner` endpoint group: every `learner` route of shared/routes.ts. */
export const handler = createGroupHandler('learner', {

});
