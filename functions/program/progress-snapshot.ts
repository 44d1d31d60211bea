import type { UserProgress } from '../../shared/program-types';
import type { UserRecord } from '../lib/user-record';
import { publishedProgram } from './published-program';
import { getEnrollment } from './store';

/**
 * The `progress` of the session user (docs/product.md#3-entities-and-their-fields "User (session)"), from the enrollment item alone
 * (one GetItem): `GET /api/auth/me` runs on every page load, so it must stay this cheap. The
 * dashboard calls derive the full state.
 */
export async function progressSnapshot(user: Pick<UserRecord, 'id'>): Promise<UserProgress> {
  const content = await publishedProgram();
  const enrollment = await getEnrollment(user.id, content.id);
  if (!enrollment) return { state: 'not_enrolled', percent_complete: 0, program_title: content.title, open_module: null };
  const open = enrollment.open_module_id ? content.byId.get(enrollment.open_module_id) : undefined;
  return {
    state: enrollment.status,
    percent_complete: enrollment.percent_complete,
    program_title: enrollment.program_title || content.title,
    open_module: open
      ? {
          module_id: open.module_id,
          title: open.title,
          position: open.position,
          state: 'open',
          slug: open.slug,
          week_number: open.week_number,
        }
      : null,
  };
}
