import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserProgress } from '@shared/program-types';
import { api, ApiError } from './api-client';
import { markSignedIn } from './session-ended';
import { clearSignedInHint, holdsSignedInHint } from './signed-in-hint';

/** The signed-in user as `GET /api/auth/me` answers it (docs/product.md#3-entities-and-their-fields "User (session)"). */
export interface SessionUser {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  name: string;
  role: 'admin' | (string & {});
  verified: boolean;
  progress?: UserProgress;
}

/**
 * `null` means signed out: a non-ok answer means logged out (docs/product.md#7-the-calls-it-makes),
 * and so does a browser without the signed-in hint, which is not asked about at all.
 */
export async function getMe(): Promise<SessionUser | null> {
  if (!holdsSignedInHint()) return null;
  try {
    const user = await api.get<SessionUser>('/api/auth/me');
    markSignedIn();
    return user;
  } catch (error) {
    if (error instanceof ApiError) {
      if (error.status === 401) clearSignedInHint();
      return null;
    }
    throw error;
  }
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'me'],
    queryFn: getMe,
    staleTime: 30_000,
  });

export const useUser = () => useQuery(meQueryOptions());

export const isAdmin = (user: SessionUser | null | undefined) => user?.role === 'admin';
