/**
 * Program authoring (docs/product.md#program-authoring): the content shape administrators edit,
 * import and export (the shape of functions/program/content/*.json joined into one document), the
 * limits the API enforces, and the answers of the `/api/admin/program/*` routes. Shared by
 * functions/ and web/.
 */

/** What the API refuses beyond them: 400 `too_many_modules`, `too_many_tasks`, `field_too_long`… */
export const PROGRAM_LIMITS = {
  weeks: 4,
  modulesPerWeek: 6,
  modules: 24,
  tasksPerModule: 8,
  sectionsPerModule: 12,
  blocksPerSection: 40,
  titleChars: 120,
  summaryChars: 600,
  headingChars: 120,
  blockChars: 4000,
  labelChars: 300,
  hintChars: 600,
  idChars: 64,
  changeNoteChars: 500,
} as const;

/** The task kinds the learner page shows. */
export const TASK_KINDS = ['checkbox', 'text'] as const;

/** Link schemes a section may use (Markdown links, autolinks or bare URLs). */
export const SAFE_LINK_SCHEMES = ['http', 'https', 'mailto'] as const;

export interface ContentTaskJson {
  task_id: string;
  type: (typeof TASK_KINDS)[number];
  label: string;
  hint: string;
  required: boolean;
  /** A list task: done once the answer holds this many lines (the label asks for them). */
  min_items?: number;
}

/** A section body block: a paragraph, or a list of bullet points. */
export type ContentBlockJson = string | string[];

export interface ContentModuleJson {
  module_id: string;
  slug: string;
  position: number;
  title: string;
  summary: string;
  sections: { heading: string; body: ContentBlockJson[] }[];
  tasks: ContentTaskJson[];
}

export interface ContentWeekJson {
  week_number: number;
  title: string;
  summary: string;
  modules: ContentModuleJson[];
}

/** program.json with its weeks (week-1.json … week-4.json) in `weeks`. */
export interface ProgramContentJson {
  program_id: string;
  title: string;
  description: string;
  weeks: ContentWeekJson[];
}

export interface AuthorRef {
  id: string;
  email: string;
}

/** How one module differs between two versions of the content. */
export interface ModuleChange {
  module_id: string;
  title: string;
  change: 'added' | 'removed' | 'edited';
  /** The parts that differ: title, summary, slug, sections, tasks, placement (week and position). */
  fields: string[];
}

/** Program-level differences (title, description, a week's title or summary). */
export interface ContentChanges {
  program: string[];
  modules: ModuleChange[];
}

/** `GET /api/admin/program/draft` and the answer of every draft write. */
export interface ProgramDraft {
  /** The draft's version check: send it back with the next write (0 = no draft saved yet). */
  revision: number;
  content: ProgramContentJson;
  /** The version learners see now (0 before the first one is stored). */
  published_version: number;
  /** The published version this draft started from. */
  based_on_version: number;
  updated_at: string | null;
  updated_by: AuthorRef | null;
  /** What publishing the draft would change. */
  changes: ContentChanges;
}

export interface ProgramVersionSummary {
  version: number;
  change_note: string;
  published_at: string;
  published_by: AuthorRef | null;
  /** Set when the version came from restoring an older one. */
  restored_from: number | null;
  module_count: number;
}

/** `GET /api/admin/program/versions` */
export interface ProgramVersionList {
  versions: ProgramVersionSummary[];
  published_version: number;
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_before: number | null;
}

/** `GET /api/admin/program/versions/{version}` */
export interface ProgramVersionView extends ProgramVersionSummary {
  content: ProgramContentJson;
  /** What this version changed from the one before it (everything is "added" for version 1). */
  changes: ContentChanges;
}

/** `POST /api/admin/program/publish` */
export interface PublishResult {
  ok: true;
  version: number;
  published_at: string;
  changes: ContentChanges;
}

/** One problem with submitted content: where, which rule, and a sentence for the author. */
export interface ContentProblem {
  path: string;
  code: string;
  message: string;
}
