import type { ProgramContentJson, ProgramDraft } from '@shared/program-authoring';
import { api } from '@/lib/api-client';
import { useDraftWrite } from './use-draft-write';

/** `PUT /api/admin/program/draft` with the revision read (409 `draft_conflict` when another admin saved first). */
export const saveDraft = (input: { revision: number; content: ProgramContentJson }) =>
  api.put<ProgramDraft>('/api/admin/program/draft', input);

export const useSaveDraft = () => useDraftWrite(saveDraft);
