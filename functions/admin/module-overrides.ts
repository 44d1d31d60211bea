import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { isContentId, isUserId } from '../../shared/key-values';
import type { ModuleState } from '../../shared/program-types';
import type { Program } from '../program/content';
import { publishedProgram } from '../program/published-program';
import { enrollmentTransition } from '../program/learner-program';
import { deriveProgress, nextModule, type StoredProgress } from '../program/progress';
import { getEnrollment, listProgress } from '../program/store';
import { auditPuts } from '../lib/audit';
import { db, tableName } from '../lib/db';
import { ApiError, badRequest, notFound } from '../lib/errors';
import { keys } from '../lib/table';
import { getUserById } from '../lib/users';
import { adminAudit, type AdminCaller } from '../lib/admin-caller';
import { accountStateCheck, assertAccepts } from '../lib/account-states';
import { adminModules, type AdminModule } from './enrollment-view';
import { nowIso } from '../lib/clock';

/**
 * Admin module overrides (docs/product.md#4-states-and-transitions "Admin module status"). They change the learner's stored
 * progress and the enrollment's percent exactly as the learner's own progress does: states are
 * derived with the program's deriveProgress, and the enrollment's aggregates, reminder index,
 * week-1 marker and the global stats move through the program's own enrollmentTransition, in
 * the same transaction (conditioned on the enrollment's version, retried on a race).
 */
export const MODULE_ACTIONS = ['unlock', 'force_complete', 'reopen', 'lock'] as const;
export type ModuleAction = (typeof MODULE_ACTIONS)[number];

export const ACTION_MESSAGES: Record<ModuleAction, string> = {
  unlock: 'Module unlocked.',
  force_complete: 'Module marked completed.',
  reopen: 'Module reopened.',
  lock: 'Module locked.',
};

const refuse = (code: string, message: string) => new ApiError(409, code, { message });

export interface OverrideResult {
  ok: true;
  message: string;
  module: AdminModule;
  percent_complete: number;
}

type Progress = StoredProgress & Record<string, unknown>;

/** The stored progress after the action, or a refusal. Pure. */
function apply(
  content: Program,
  action: ModuleAction,
  moduleId: string,
  stored: Map<string, Progress>,
  now: string,
): Map<string, Progress> {
  const derived = deriveProgress(content, stored);
  const current: ModuleState = derived.states.get(moduleId) ?? 'locked';
  const next = new Map(stored);
  const base = (id: string): Progress => stored.get(id) ?? { module_id: id, status: 'locked' };
  const put = (id: string, changes: Partial<Progress>) => {
    const item = { ...base(id), ...changes };
    if (item.status !== 'completed') delete item.completed_at;
    next.set(id, item);
  };
  switch (action) {
    case 'force_complete': {
      if (current === 'completed') throw refuse('already_completed', 'Module is already completed.');
      put(moduleId, { status: 'completed', started_at: base(moduleId).started_at ?? now, completed_at: now });
      // As a learner's completion does: the open module done, the next locked one opens.
      if (derived.open?.module_id === moduleId) {
        const following = nextModule(content, derived.open);
        if (following && derived.states.get(following.module_id) === 'locked')
          put(following.module_id, { status: 'open', started_at: now });
      }
      break;
    }
    case 'reopen':
      if (current !== 'completed') throw refuse('not_completed', 'Module is not completed.');
      put(moduleId, { status: 'open' });
      break;
    case 'lock':
      if (current === 'locked') throw refuse('already_locked', 'Module is already locked.');
      put(moduleId, { status: 'locked' });
      // The learner can always go on: with no other open module, the first unfinished one opens
      // again (progress.ts), so locking it would change nothing. Say so instead of "Module locked.".
      if (deriveProgress(content, next).states.get(moduleId) !== 'locked') {
        throw refuse('only_open_module', "This is the learner's only open module: open another module first, then lock this one.");
      }
      break;
    case 'unlock':
      if (current === 'completed') throw refuse('already_completed', 'Module is already completed.');
      if (current === 'open') throw refuse('already_open', 'Module is already open.');
      put(moduleId, { status: 'open', started_at: base(moduleId).started_at ?? now });
      break;
  }
  return next;
}

export async function overrideModule(
  action: ModuleAction,
  input: { user_id?: unknown; module_id?: unknown },
  caller: AdminCaller,
): Promise<OverrideResult> {
  const missing = (['user_id', 'module_id'] as const).filter((field) => typeof input[field] !== 'string' || !input[field].trim());
  if (missing.length) throw badRequest('missing_fields', { fields: missing });
  const userId = (input.user_id as string).trim();
  const moduleId = (input.module_id as string).trim();
  // Both become keys (USER#<id>, PROGRESS#…#<module id>): an id the product never issued names
  // nothing and is refused before any read (docs/security.md#values-that-become-keys).
  const malformed = [...(isUserId(userId) ? [] : ['user_id']), ...(isContentId(moduleId) ? [] : ['module_id'])];
  if (malformed.length) throw badRequest('invalid_request', { fields: malformed });
  const content = await publishedProgram();
  if (!content.byId.has(moduleId)) throw notFound();

  for (let attempt = 1; ; attempt++) {
    // read again on a retry: a purge that started meanwhile refuses the override
    const user = await getUserById(userId);
    if (!user) throw notFound();
    assertAccepts('overrideModule', user);
    const enrollment = await getEnrollment(userId, content.id);
    if (!enrollment) throw notFound();
    const stored = (await listProgress(userId, content.id)) as Map<string, Progress>;
    const now = nowIso();
    const after = apply(content, action, moduleId, stored, now);
    const before = deriveProgress(content, stored);
    const derived = deriveProgress(content, after);
    const { enrollmentUpdate, stats, week1 } = enrollmentTransition(user, enrollment, derived, content, new Date(now));
    const changedIds = [...after.keys()].filter((id) => after.get(id) !== stored.get(id));
    // Filed under the learner, so the override shows in that user's Audit tab (docs/product.md#10-journeys).
    const entity = { type: 'user' as const, id: userId };
    const rowOf = (map: Map<string, Progress>) => adminModules(content, map).find((row) => row.module_id === moduleId)!;
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            enrollmentUpdate,
            // never on an account whose purge started since it was read (functions/lib/account-states.ts)
            accountStateCheck('overrideModule', userId),
            ...changedIds.map((id) => ({
              Put: {
                TableName: tableName(),
                Item: {
                  ...after.get(id),
                  ...keys.moduleProgress(userId, content.id, id),
                  type: 'module_progress',
                  user_id: userId,
                  program_id: content.id,
                  module_id: id,
                  updated_at: now,
                },
              },
            })),
            ...(stats ? [stats] : []),
            ...week1,
            ...auditPuts(
              adminAudit(caller, `admin.module.${action}`, entity, {
                old: {
                  user_id: userId,
                  enrollment_id: enrollment.id,
                  module_id: moduleId,
                  status: rowOf(stored).status,
                  percent_complete: enrollment.percent_complete ?? before.percent,
                },
                new: {
                  user_id: userId,
                  enrollment_id: enrollment.id,
                  module_id: moduleId,
                  status: rowOf(after).status,
                  percent_complete: derived.percent,
                },
              }),
            ),
          ],
        }),
      );
    } catch (error) {
      // The learner (or another admin) changed the enrollment meanwhile: decide again on fresh data.
      if (error instanceof TransactionCanceledException && attempt < 4) continue;
      throw error;
    }
    return { ok: true, message: ACTION_MESSAGES[action], module: rowOf(after), percent_complete: derived.percent };
  }
}
