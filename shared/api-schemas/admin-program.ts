/** Response shapes and error codes of program authoring (docs/product.md#program-authoring), part of the `admin` group. */
import * as z from 'zod/mini';
import { DOWNLOAD, isoTime, MESSAGE_DETAIL, type RouteDoc } from './common';

const author = z.nullable(z.object({ id: z.string(), email: z.string() }));
const task = z.object({
  task_id: z.string(),
  type: z.enum(['checkbox', 'text']),
  label: z.string(),
  hint: z.string(),
  required: z.boolean(),
  min_items: z.optional(z.number()),
});
const contentModule = z.object({
  module_id: z.string(),
  slug: z.string(),
  position: z.number(),
  title: z.string(),
  summary: z.string(),
  sections: z.array(z.object({ heading: z.string(), body: z.array(z.union([z.string(), z.array(z.string())])) })),
  tasks: z.array(task),
});
/** The content document: program.json with week-1.json … week-4.json in `weeks` (functions/program/content/). */
export const programContent = z.object({
  program_id: z.string(),
  title: z.string(),
  description: z.string(),
  weeks: z.array(z.object({ week_number: z.number(), title: z.string(), summary: z.string(), modules: z.array(contentModule) })),
});
const changes = z.object({
  program: z.array(z.string()),
  modules: z.array(
    z.object({ module_id: z.string(), title: z.string(), change: z.enum(['added', 'removed', 'edited']), fields: z.array(z.string()) }),
  ),
});
const draft = z.object({
  revision: z.number(),
  content: programContent,
  published_version: z.number(),
  based_on_version: z.number(),
  updated_at: z.nullable(isoTime),
  updated_by: author,
  changes,
});
const versionSummary = z.object({
  version: z.number(),
  change_note: z.string(),
  published_at: isoTime,
  published_by: author,
  restored_from: z.nullable(z.number()),
  module_count: z.number(),
});
const draftWrite = z.object({
  revision: z.number().check(z.describe('the draft revision this write is based on (0: none saved yet)')),
  content: programContent,
});
/** 400 codes of submitted content; each error body also lists every problem (`problems`: path, code, message). */
const CONTENT_ERRORS = [
  'invalid_revision',
  'invalid_content',
  'empty_field',
  'field_too_long',
  'unknown_task_kind',
  'unsafe_link',
  'raw_html',
  'too_many_modules',
  'too_many_tasks',
  'too_many_sections',
  'program_mismatch',
] as const;

/** A lost version check (`draft_conflict`): who wrote the draft, when, what differs; or a publish with nothing to publish. */
const DRAFT_CONFLICT = {
  ...MESSAGE_DETAIL,
  revision: z.number().check(z.describe('draft_conflict: the current revision')),
  updated_by: author.check(z.describe('draft_conflict: who saved the draft')),
  updated_at: z.nullable(isoTime).check(z.describe('draft_conflict: when')),
  changes: changes.check(z.describe('draft_conflict: how the saved draft differs from what was sent')),
};
/** Every problem of submitted content; the error code is the first one's. */
const CONTENT_PROBLEMS = {
  ...DRAFT_CONFLICT,
  problems: z
    .array(z.object({ path: z.string(), code: z.string(), message: z.string() }))
    .check(z.describe('every problem of the content')),
};

export const programDocs: Record<string, RouteDoc> = {
  'GET /api/admin/program/draft': {
    summary: 'The draft of the program (the published content when none is saved) and what publishing it would change.',
    responses: { 200: draft },
    errors: {},
  },
  'PUT /api/admin/program/draft': {
    summary: 'Saves the draft; 409 `draft_conflict` (who changed it, when, what differs) when another administrator saved it meanwhile.',
    body: draftWrite,
    responses: { 200: draft },
    details: CONTENT_PROBLEMS,
    errors: { 400: CONTENT_ERRORS, 409: ['draft_conflict'] },
  },
  'POST /api/admin/program/import': {
    summary: 'Replaces the draft with an exported content document (checked as a draft save).',
    body: draftWrite,
    responses: { 200: draft },
    details: CONTENT_PROBLEMS,
    errors: { 400: CONTENT_ERRORS, 409: ['draft_conflict'] },
  },
  'POST /api/admin/program/publish': {
    summary: 'Publishes the draft as the next version learners see, atomically, with a required change note.',
    body: z.object({ revision: z.number(), change_note: z.string() }),
    responses: { 200: z.object({ ok: z.literal(true), version: z.number(), published_at: isoTime, changes }) },
    details: DRAFT_CONFLICT,
    errors: { 400: ['invalid_revision', 'change_note_required', 'field_too_long'], 409: ['draft_conflict', 'no_changes'] },
  },
  'GET /api/admin/program/versions': {
    summary: 'Published versions, newest first, 20 a page (`before`: the `next_before` of the previous page).',
    responses: { 200: z.object({ versions: z.array(versionSummary), published_version: z.number(), next_before: z.nullable(z.number()) }) },
    errors: { 400: ['invalid_version'] },
  },
  'GET /api/admin/program/versions/{version}': {
    summary: 'One published version: its content and what it changed from the version before, per module.',
    responses: { 200: z.extend(versionSummary, { content: programContent, changes }) },
    errors: { 400: ['invalid_version'], 404: ['version_not_found'] },
  },
  'GET /api/admin/program/versions/{version}/export': {
    summary: 'A published version as a JSON file in the shape of functions/program/content/ (importable on any stage).',
    description: 'An application/json attachment named <program>-v<version>.json.',
    headers: { 'Content-Disposition': DOWNLOAD },
    responses: { 200: programContent },
    errors: { 400: ['invalid_version'], 404: ['version_not_found'] },
  },
  'POST /api/admin/program/versions/{version}/restore': {
    summary: "Restores a published version's content as the draft (version checked like a save).",
    responses: { 200: draft },
    details: DRAFT_CONFLICT,
    errors: { 400: ['invalid_version', 'invalid_revision'], 404: ['version_not_found'], 409: ['draft_conflict'] },
  },
};
