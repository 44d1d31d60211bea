import type { AdminUserDetail } from '@shared/admin-types';

/**
 * An account whose hard delete or erasure is under way (`purging`): the API refuses every change
 * to it (409 `account_being_erased`), so the drawer offers none (docs/product.md#user-drawer).
 */
export const isBeingErased = (user: Pick<AdminUserDetail, 'status'>) => user.status === 'purging';
