import type { ProgramDraft } from '@shared/program-authoring';
import { api } from '@/lib/api-client';
import { useDraftWrite } from './use-draft-write';

/** `POST /api/admin/program/import`: an exported version file becomes the draft. */
export const importDraft = (input: { revision: number; content: unknown }) => api.post<ProgramDraft>('/api/admin/program/import', input);

export const useImportDraft = () => useDraftWrite(importDraft);
