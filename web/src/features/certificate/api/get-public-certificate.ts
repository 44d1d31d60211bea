import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicCertificate } from '@shared/program-types';
import { api, ApiError } from '@/lib/api-client';

/** `GET /api/certificates/{code}`: anyone may check a certificate, no session needed. */
export const getPublicCertificate = (code: string) => api.get<PublicCertificate>(`/api/certificates/${encodeURIComponent(code)}`);

export const publicCertificateQueryOptions = (code: string) =>
  queryOptions({
    queryKey: ['certificate', 'check', code.toUpperCase()],
    queryFn: () => getPublicCertificate(code),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

export const usePublicCertificate = (code: string) => useQuery(publicCertificateQueryOptions(code));
