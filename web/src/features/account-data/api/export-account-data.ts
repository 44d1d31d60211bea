import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** `GET /api/account/export`: everything the product keeps about the signed-in account. */
export const exportAccountData = () => api.get<Record<string, unknown> & { exported_at: string }>('/api/account/export');

/** Saves the export as a JSON file (the same name the API suggests in Content-Disposition). */
export function saveJsonFile(data: unknown, fileName: string): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** A mutation, not a query: the export is fetched on demand and never cached in the page. */
export const useExportAccountData = () =>
  useMutation({
    mutationFn: exportAccountData,
    onSuccess: (data) => saveJsonFile(data, `career-program-data-${data.exported_at.slice(0, 10)}.json`),
  });
