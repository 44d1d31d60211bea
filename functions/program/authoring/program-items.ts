import type { AuthorRef, ProgramContentJson } from '@shared/program-authoring';
import { keys } from '../../lib/table';
import type { ProgramContent } from '../content';

/**
 * The program's items in its own partition (functions/lib/table.ts, docs/data-model.md): the
 * whole content of a version is one item (about 40 KB today, far under DynamoDB's 400 KB, and
 * the API's 64 KB request limit bounds what a draft can hold), so every read is one GetItem.
 */
export interface VersionRecord {
  pk: string;
  sk: string;
  type: 'program_version';
  program_id: string;
  version: number;
  content: ProgramContentJson;
  change_note: string;
  published_at: string;
  published_by: AuthorRef | null;
  restored_from?: number;
  module_count: number;
}

export interface DraftRecord {
  pk: string;
  sk: string;
  type: 'program_draft';
  program_id: string;
  content: ProgramContentJson;
  /** Bumped by every write of the draft (saves, imports, restores, publishes): the version check. */
  revision: number;
  based_on_version: number;
  updated_at: string;
  updated_by: AuthorRef;
  /** The draft came from restoring this version (and its next publish says so). */
  restored_from?: number;
}

const moduleCount = (content: ProgramContent | ProgramContentJson) => content.weeks.reduce((sum, week) => sum + week.modules.length, 0);

export function versionItem(
  content: ProgramContent | ProgramContentJson,
  version: number,
  facts: { change_note: string; published_at: string; published_by: AuthorRef | null; restored_from?: number },
): VersionRecord {
  return {
    ...keys.programVersion(content.program_id, version),
    type: 'program_version',
    program_id: content.program_id,
    version,
    content: content,
    ...facts,
    module_count: moduleCount(content),
  };
}

/** META's fields for a published version (the learner read path reads `published_version` only). */
export function programMetaFields(content: ProgramContent | ProgramContentJson, version: number, at: string) {
  return {
    ...keys.programMeta(content.program_id),
    type: 'program',
    program_id: content.program_id,
    title: content.title,
    description: content.description,
    published_version: version,
    published_at: at,
    week_count: content.weeks.length,
    module_count: moduleCount(content),
    module_ids: content.weeks.flatMap((week) => week.modules.map((module) => module.module_id)),
  };
}
