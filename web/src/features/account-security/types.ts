/** Shapes of the account security endpoints (docs/security.md#account-security-center), derived from the API's response schemas. */
import type * as z from 'zod/mini';
import type { sessionList } from '@shared/api-schemas/auth';
import type { passkey } from '@shared/api-schemas/passkeys';

export type SessionItem = z.output<typeof sessionList>['items'][number];
export type PasskeyItem = z.output<typeof passkey>;
