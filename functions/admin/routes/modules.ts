import * as z from 'zod/mini';
import { defineRoute } from '../../lib/http';
import { overrideModule, type ModuleAction } from '../module-overrides';
import { adminCallerOf } from '../../lib/admin-caller';

/** `POST /api/admin/modules/{unlock,force-complete,reopen,lock}` {user_id, module_id} */
const moduleRoute = (action: ModuleAction) =>
  defineRoute({
    body: z.object({ user_id: z.optional(z.unknown()), module_id: z.optional(z.unknown()) }),
    handler: async (req) => ({ body: await overrideModule(action, req.body, adminCallerOf(req)) }),
  });

export const unlockModuleRoute = moduleRoute('unlock');
export const forceCompleteModuleRoute = moduleRoute('force_complete');
export const reopenModuleRoute = moduleRoute('reopen');
export const lockModuleRoute = moduleRoute('lock');
