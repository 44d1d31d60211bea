import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { downloadFile } from '@/utils/download-file';

interface AuditPage {
  audit_entries: unknown[];
  audit_next_cursor: string | null;
}

type AccountExport = Record<string, unknown> & { exported_at: string } & AuditPage;

/**
 * `GET /api/account/export`: everything the product keeps about the signed-in account. The
 * answer carries the newest audit entries; the older ones follow in bounded answers
 * (`?audit_cursor=`, docs/product.md "Account data"), joined here into the one document.
 */
export async function exportAccountData() {
  const { audit_next_cursor: first, ...data } = await api.get<AccountExport>('/api/account/export');
  const entries = [...data.audit_entries];
  for (let cursor = first; cursor;) {
    const page = await api.get<AuditPage>(`/api/account/export?audit_cursor=${encodeURIComponent(cursor)}`);
    entries.push(...page.audit_entries);
    cursor = page.audit_next_cursor;
  }
  return { ...data, audit_entries: entries };
}

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
