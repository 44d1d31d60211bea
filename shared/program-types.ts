/**
 * Response and request shapes of the learner program API (docs/product.md#3-entities-and-their-fields "Dashboard", "Dashboard
 * state", "Module (learner)", "Notification preference"), shared by functions/ and web/.
 */
import type { REMINDER_FREQUENCIES } from './constants';

export type ModuleState = 'open' | 'locked' | 'completed';
export type TaskType = 'checkbox' | 'text';
export type ReminderFrequency = (typeof REMINDER_FREQUENCIES)[number];

/** Longest written answer a task accepts (characters, after trimming). */
export const TASK_ANSWER_MAX_LENGTH = 2000;

/** `GET /api/dashboard` */
export interface DashboardSummary {
  percent_complete: number;
  program_title: string;
}

/** One module in the dashboard grid. `position` is the order within its week (1-based). */
export interface LearnerModule {
  module_id: string;
  title: string;
  position: number;
  state: ModuleState;
  slug: string;
}

/** The open module also carries its week. */
export interface OpenModule extends LearnerModule {
  state: 'open';
  week_number: number;
}

export interface DashboardWeek {
  week_number: number;
  modules: LearnerModule[];
}

/** `GET /api/dashboard/state` */
export interface DashboardState {
  grid: DashboardWeek[];
  /** null once every module is completed. */
  open_module: OpenModule | null;
  percent_complete: number;
}

/** `POST /api/enroll` */
export interface EnrollResponse {
  message: string;
}

export interface ModuleSection {
  heading: string;
  /**
   * Plain text (never HTML): paragraphs separated by a blank line; a paragraph made of lines that
   * start with '- ' is a bullet list.
   */
  body: string;
}

/** A task of a module with the learner's saved work on it. */
export interface LearnerTask {
  task_id: string;
  type: TaskType;
  /** What to do (shown as the checkbox label or the question). */
  label: string;
  /** Extra guidance shown under the label (may be empty). */
  hint: string;
  required: boolean;
  /** A list task: done only once the answer holds this many items, one per line. */
  min_items?: number;
  done: boolean;
  /** Text tasks: the saved answer ('' when none). */
  answer?: string;
  updated_at: string | null;
}

export interface ModuleLink {
  slug: string;
  title: string;
  week_number: number;
}

export interface ModuleDetail {
  module_id: string;
  slug: string;
  title: string;
  summary: string;
  week_number: number;
  week_title: string;
  /** Order within the week (1-based). */
  position: number;
  state: ModuleState;
  sections: ModuleSection[];
  tasks: LearnerTask[];
}

/** `GET /api/modules/{slug}` */
export interface ModulePage {
  module: ModuleDetail;
  /** The next module in program order (null after the last one). */
  next_module: ModuleLink | null;
  percent_complete: number;
  program_title: string;
}

/** `PUT /api/modules/{slug}/tasks/{task_id}` body: either or both fields. */
export interface TaskSaveRequest {
  done?: boolean;
  answer?: string;
}

/** `PUT /api/modules/{slug}/tasks/{task_id}` response. */
export interface TaskSave {
  task: LearnerTask;
  module_id: string;
  slug: string;
  module_state: ModuleState;
  /** True only on the save that completed the module. */
  completed_now: boolean;
  percent_complete: number;
  next_module: ModuleLink | null;
  /** The module open after this save (null when the program is finished). */
  open_module: OpenModule | null;
}

/** 403 body for a locked module (`GET` or `PUT`). */
export interface ModuleLockedError {
  error: 'module_locked';
  requires: { slug: string; title: string };
}

/** `GET`/`POST /api/settings/notifications` */
export interface NotificationPreferences {
  reminder_frequency: ReminderFrequency;
  /** IANA time zone of the reminders' local morning (default "UTC"). */
  time_zone: string;
  /** True after 4 weeks without activity: one "paused" email, then no reminders until the learner resumes them or comes back. */
  reminders_paused: boolean;
}

/** `progress` of the session user in `GET /api/auth/me` (docs/product.md#3-entities-and-their-fields "User (session)"). */
export interface UserProgress {
  state: 'not_enrolled' | 'active' | 'completed';
  percent_complete: number;
  program_title: string;
  open_module: OpenModule | null;
}

/** `GET /api/certificate`: the signed-in learner's certificate of completion. */
export interface CertificateView {
  verification_code: string;
  first_name: string;
  last_name: string;
  program_title: string;
  completed_at: string;
  issued_at: string;
  /** The public page where anyone can check the certificate. */
  verify_url: string;
}

/** `GET /api/certificates/{code}`: what anyone may check, without signing in. */
export interface PublicCertificate {
  verification_code: string;
  name: string;
  program_title: string;
  completed_at: string;
  issued_at: string;
  status: 'valid' | 'revoked';
  revoked_at: string | null;
}
