/**
 * Response and request shapes of the learner program API (docs/product.md#3-entities-and-their-fields "Dashboard", "Dashboard
 * state", "Module (learner)", "Notification preference"), shared by functions/ and web/, derived from
 * the response schemas the OpenAPI document is built from (shared/api-schemas/): one source per
 * shape. Type-only imports, so no bundle carries the schemas.
 */
import type * as z from 'zod/mini';
import type { publicCertificate, userProgress } from './api-schemas/auth';
import type { learnerModule, learnerTask, moduleLink, moduleState, openModule } from './api-schemas/common';
import type {
  certificateView,
  dashboardState,
  dashboardSummary,
  dashboardWeek,
  enrollResponse,
  moduleDetail,
  modulePage,
  moduleSection,
  notificationPreferences,
  taskSave,
} from './api-schemas/learner';
import type { REMINDER_FREQUENCIES } from './constants';

export type ModuleState = z.output<typeof moduleState>;
export type ReminderFrequency = (typeof REMINDER_FREQUENCIES)[number];

/** Longest written answer a task accepts (characters, after trimming). */
export const TASK_ANSWER_MAX_LENGTH = 2000;

/** `GET /api/dashboard` */
export type DashboardSummary = z.output<typeof dashboardSummary>;

/** One module in the dashboard grid. `position` is the order within its week (1-based). */
export type LearnerModule = z.output<typeof learnerModule>;

/** The open module also carries its week. */
export type OpenModule = z.output<typeof openModule>;

export type DashboardWeek = z.output<typeof dashboardWeek>;

/** `GET /api/dashboard/state`; `open_module` is null once every module is completed. */
export type DashboardState = z.output<typeof dashboardState>;

/** `POST /api/enroll` */
export type EnrollResponse = z.output<typeof enrollResponse>;

/**
 * `body` is plain text (never HTML): paragraphs separated by a blank line; a paragraph made of
 * lines that start with '- ' is a bullet list.
 */
export type ModuleSection = z.output<typeof moduleSection>;

/**
 * A task of a module with the learner's saved work on it: `label` is what to do (the checkbox
 * label or the question), `hint` extra guidance (may be empty), `min_items` (list tasks) how many
 * items, one per line, the answer must hold to be done, `answer` the saved text ('' when none).
 */
export type LearnerTask = z.output<typeof learnerTask>;
export type TaskType = LearnerTask['type'];

export type ModuleLink = z.output<typeof moduleLink>;

/** A module page's module; `position` is the order within the week (1-based). */
export type ModuleDetail = z.output<typeof moduleDetail>;

/** `GET /api/modules/{slug}`; `next_module` is the next in program order (null after the last one). */
export type ModulePage = z.output<typeof modulePage>;

/** `PUT /api/modules/{slug}/tasks/{task_id}` body: either or both fields. */
export interface TaskSaveRequest {
  done?: boolean;
  answer?: string;
}

/**
 * `PUT /api/modules/{slug}/tasks/{task_id}` response: `completed_now` is true only on the save
 * that completed the module; `open_module` is the module open after it (null once the program is finished).
 */
export type TaskSave = z.output<typeof taskSave>;

/** 403 body for a locked module (`GET` or `PUT`). */
export interface ModuleLockedError {
  error: 'module_locked';
  requires: { slug: string; title: string };
}

/** `GET`/`POST /api/settings/notifications`; `time_zone` is the IANA zone of the reminders' local morning (default "UTC"); `reminders_paused` is true after 4 weeks without activity. */
export type NotificationPreferences = z.output<typeof notificationPreferences>;

/** `progress` of the session user in `GET /api/auth/me` (docs/product.md#3-entities-and-their-fields "User (session)"). */
export type UserProgress = z.output<typeof userProgress>;

/** `GET /api/certificate`: the signed-in learner's certificate of completion; `verify_url` is the public page where anyone can check it. */
export type CertificateView = z.output<typeof certificateView>;

/** `GET /api/certificates/{code}`: what anyone may check, without signing in. */
export type PublicCertificate = z.output<typeof publicCertificate>;
