import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AdminUserDetail } from '@shared/admin-types';
import { userPath, userQueryOptions } from './get-user';
import { invalidateUser } from './user-cache';

export interface RevokeCertificateResult {
  ok: true;
  verification_code: string;
  revoked_at: string;
}

/** `POST /api/admin/users/{id}/certificate/revoke`: the public check then answers "revoked" (audited). */
export const revokeCertificate = (id: string) => api.post<RevokeCertificateResult>(`${userPath(id)}/certificate/revoke`);

export function useRevokeCertificate(id: string) {
  const queryClient = useQueryClient();
  const key = userQueryOptions(id).queryKey;
  return useMutation({
    mutationFn: () => revokeCertificate(id),
    onSuccess: (result) =>
      queryClient.setQueryData(key, (user: AdminUserDetail | undefined) =>
        user?.certificate ? { ...user, certificate: { ...user.certificate, revoked_at: result.revoked_at } } : user,
      ),
    onSettled: () => invalidateUser(queryClient, id),
  });
}
