import { exportAccountData } from '../accounts/data-export';
import { defineRoute } from '../lib/http';
import { program } from '../program/content';

/**
 * `GET /api/account/export` → the account's data as a JSON file download. Composed here, above
 * the domains: the answers are listed in the program's order, which the accounts domain does not read.
 */
export const exportAccountRoute = defineRoute({
  handler: async (req) => {
    const data = await exportAccountData(req.session!.user, program().modules);
    const day = data.exported_at.slice(0, 10);
    return {
      body: data,
      headers: {
        'Content-Disposition': `attachment; filename="career-program-data-${day}.json"`,
        'Cache-Control': 'no-store',
      },
    };
  },
});
