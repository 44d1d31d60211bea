import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { downloadFile } from '../../../utils/download-file';

/** `GET /api/account/export`: everything the product keeps about the signed-in account. */
export const exportAccountData = () => api.get<Record<string, unknown> & { exported_at: string }>('/api/account/export');

/** A mutation, not a query: the export is fetched on demand and never cached in the page. */
export const useExportAccountData = () =>
  useMutation({
    mutationFn: exportAccountData,
    onSuccess: (data) =>
      downloadFile(
        new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
        `career-program-data-${data.exported_at.slice(0, 10)}.json`,
      ),
  });
