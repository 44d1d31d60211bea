import type { Program } from '../program/content';
import { publishedProgram } from '../program/published-program';
import { deriveProgress, type StoredProgress } from '../program/progress';
import { getEnrollment, listProgress, type EnrollmentRecord } from '../program/store';
import type { AdminEnrollment, AdminModule } from '../../shared/admin-types';

export type { AdminEnrollment, AdminModule };

/** Module rows with the states the learner sees (derived as in the learner API). */
export function adminModules(content: Program, stored: Map<string, StoredProgress>): AdminModule[] {
  const derived = deriveProgress(content, stored);
  return content.modules.map((module) => ({
    module_id: module.module_id,
    title: module.title,
    week_no: module.week_number,
    module_number: module.position,
    status: derived.states.get(module.module_id) ?? 'locked',
    started_at: stored.get(module.module_id)?.started_at ?? null,
    completed_at: stored.get(module.module_id)?.completed_at ?? null,
  }));
}

export function adminEnrollment(content: Program, enrollment: EnrollmentRecord, stored: Map<string, StoredProgress>): AdminEnrollment {
  return {
    id: enrollment.id,
    program_id: enrollment.program_id,
    program_title: enrollment.program_title ?? content.title,
    status: enrollment.status,
    percent_complete: enrollment.percent_complete ?? 0,
    enrolled_at: enrollment.enrolled_at,
    modules: adminModules(content, stored),
  };
}

/** The account's enrollments (one program today: one GetItem and one bounded Query). */
export async function enrollmentsOf(userId: string): Promise<AdminEnrollment[]> {
  const content = await publishedProgram();
  const enrollment = await getEnrollment(userId, content.id);
  if (!enrollment) return [];
  return [adminEnrollment(content, enrollment, await listProgress(userId, content.id))];
}
