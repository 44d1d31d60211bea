import { config } from './config';
import type { UserRecord } from './user-record';

const DAY_MS = 24 * 3600 * 1000;

/** When a soft-deleted account may be hard-deleted: deleted_at + the retention window. */
export function hardDeleteAvailableAt(user: Pick<UserRecord, 'status' | 'deleted_at'>): Date | null {
  if (user.status !== 'deleted' || !user.deleted_at) return null;
  return new Date(Date.parse(user.deleted_at) + config().retentionDays * DAY_MS);
}
