import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProgramDraft } from '@shared/program-authoring';
import { api } from '@/lib/api-client';

/** `GET /api/admin/program/draft` (docs/product.md#program-authoring). */
export const draftQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'program', 'draft'], queryFn: () => api.get<ProgramDraft>('/api/admin/program/draft') });

export const useDraft = () => useQuery(draftQueryOptions());
