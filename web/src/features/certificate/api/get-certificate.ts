import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CertificateView } from '@shared/program-types';
import { api, ApiError } from '@/lib/api-client';

/** `GET /api/certificate`: issued on the first request after the last module is completed. */
export const getCertificate = () => api.get<CertificateView>('/api/certificate');

export const certificateQueryOptions = () =>
  queryOptions({
    queryKey: ['certificate', 'mine'],
    queryFn: getCertificate,
    // 403 (not completed, revoked) and 404 (not enrolled) are answers, not hiccups: no retry.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

export const useCertificate = () => useQuery(certificateQueryOptions());
