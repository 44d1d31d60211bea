import * as z from 'zod/mini';
import { contentIdParam, slugParam } from '../../shared/key-values';
import { TASK_ANSWER_MAX_LENGTH } from '../../shared/program-types';
import { conflict } from '../lib/errors';
import { defineRoute, type ApiRequest } from '../lib/http';
import type { UserRecord } from '../lib/user-record';
import { callerOf } from '../lib/caller';
import { getOrIssueCertificate } from './certificate';
import { dashboardState, dashboardSummary } from './dashboard';
import { enroll, ENROLL_MESSAGE } from './enroll';
import { loadLearnerProgram } from './learner-program';
import { getModulePage } from './module-page';
import { getNotificationPreferences, setNotificationPreferences } from './notifications';
import { saveTask } from './task-save';

/** Thin handlers of the learner group: parse → domain → response. Every route needs a session. */
const learnerOf = (request: ApiRequest<unknown, unknown>): UserRecord => request.session!.user;

export const enrollRoute = defineRoute({
  body: z.object({ preview: z.optional(z.boolean()) }),
  handler: async (request) => {
    const user = learnerOf(request);
    // Nobody is enrolled by opening a page: an admin enrolls only by choosing to preview (docs/product.md#10-journeys).
    if (user.role === 'admin' && request.body.preview !== true) throw conflict('preview_required');
    await enroll(user);
    return { body: { message: ENROLL_MESSAGE } };
  },
});

export const dashboardRoute = defineRoute({
  handler: async (request) => ({ body: dashboardSummary(await loadLearnerProgram(learnerOf(request))) }),
});

export const dashboardStateRoute = defineRoute({
  handler: async (request) => ({ body: dashboardState(await loadLearnerProgram(learnerOf(request))) }),
});

/** A module by its slug; a task by its id (shared/key-values.ts): anything else names nothing, 404 before any read. */
const modulePath = z.object({ slug: slugParam });
const taskPath = z.object({ slug: slugParam, task_id: contentIdParam });

export const modulePageRoute = defineRoute({
  params: modulePath,
  handler: async (request) => ({ body: await getModulePage(learnerOf(request), request.params.slug) }),
});

const taskSaveBody = z.strictObject({
  done: z.optional(z.boolean()),
  answer: z.optional(z.string().check(z.trim(), z.maxLength(TASK_ANSWER_MAX_LENGTH))),
});

export const taskSaveRoute = defineRoute({
  params: taskPath,
  body: taskSaveBody,
  handler: async (request) => ({
    body: await saveTask(learnerOf(request), request.params.slug, request.params.task_id, request.body),
  }),
});

export const getNotificationsRoute = defineRoute({
  handler: (request) => Promise.resolve({ body: getNotificationPreferences(learnerOf(request)) }),
});

// Validated by the domain, not zod: a bad frequency answers 400 `invalid_reminder_frequency`, a
// zone Intl does not know 400 `invalid_time_zone`.
export const setNotificationsRoute = defineRoute({
  handler: async (request) => {
    const body = (request.body ?? {}) as { reminder_frequency?: unknown; time_zone?: unknown };
    return { body: await setNotificationPreferences(learnerOf(request), body) };
  },
});

/** `GET /api/certificate` → the learner's certificate (403 `program_not_completed` before the end). */
export const certificateRoute = defineRoute({
  handler: async (request) => ({ body: await getOrIssueCertificate(learnerOf(request), callerOf(request)) }),
});
