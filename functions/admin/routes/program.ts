import * as z from 'zod/mini';
import { defineRoute } from '../../lib/http';
import { getDraft, publishDraft, writeDraft } from '../../program/authoring/program-drafts';
import { exportVersion, getVersion, listVersions, restoreVersion } from '../../program/authoring/program-versions';
import { adminCallerOf } from './caller';

/*
 * Program authoring (docs/product.md#program-authoring). Bodies are checked by the domain code
 * (functions/program/authoring/validate-content.ts) so each problem gets its own error code.
 */
const draftBody = z.object({ revision: z.optional(z.unknown()), content: z.optional(z.unknown()) });

/** `GET /api/admin/program/draft` */
export const getDraftRoute = defineRoute({ handler: async () => ({ body: await getDraft() }) });

/** `PUT /api/admin/program/draft` {revision, content} (409 `draft_conflict`; 400 per content problem) */
export const saveDraftRoute = defineRoute({
  body: draftBody,
  handler: async (req) => ({ body: await writeDraft('draft_save', req.body, adminCallerOf(req)) }),
});

/** `POST /api/admin/program/import` {revision, content}: a JSON file exported from any stage becomes the draft. */
export const importRoute = defineRoute({
  body: draftBody,
  handler: async (req) => ({ body: await writeDraft('import', req.body, adminCallerOf(req)) }),
});

/** `POST /api/admin/program/publish` {revision, change_note} */
export const publishRoute = defineRoute({
  body: z.object({ revision: z.optional(z.unknown()), change_note: z.optional(z.unknown()) }),
  handler: async (req) => ({ body: await publishDraft(req.body, adminCallerOf(req)) }),
});

/** `GET /api/admin/program/versions?before` */
export const listVersionsRoute = defineRoute({
  query: z.object({ before: z.optional(z.string()) }),
  handler: async (req) => ({ body: await listVersions(req.query) }),
});

/** `GET /api/admin/program/versions/{version}` */
export const getVersionRoute = defineRoute({ handler: async (req) => ({ body: await getVersion(req.params.version) }) });

/** `GET /api/admin/program/versions/{version}/export` → the content as an attached JSON file */
export const exportVersionRoute = defineRoute({
  handler: async (req) => {
    const file = await exportVersion(req.params.version);
    return {
      rawBody: file.json,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
        'Cache-Control': 'no-store',
      },
    };
  },
});

/** `POST /api/admin/program/versions/{version}/restore` {revision} */
export const restoreVersionRoute = defineRoute({
  body: z.object({ revision: z.optional(z.unknown()) }),
  handler: async (req) => ({ body: await restoreVersion(req.params.version, req.body, adminCallerOf(req)) }),
});
