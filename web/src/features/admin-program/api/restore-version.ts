import type { ProgramDraft } from '@shared/program-authoring';
import { api } from '@/lib/api-client';
import { useDraftWrite } from './use-draft-write';

/** `POST /api/admin/program/versions/{version}/restore`: an older version becomes the draft. */
export const restoreVersion = ({ version, revision }: { version: number; revision: number }) =>
  api.post<ProgramDraft>(`/api/admin/program/versions/${version}/restore`, { revision });

export const useRestoreVersion = () => useDraftWrite(restoreVersion);
