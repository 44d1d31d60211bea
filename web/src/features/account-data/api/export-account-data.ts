import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { downloadFile, downloadFrom } from '@/utils/download-file';

interface AuditPage {
  audit_entries: unknown[];
  audit_next_cursor: string | null;
}

/** The file a person saves: every audit entry, no cursor. */
type AccountFile = Record<string, unknown> & { exported_at: string; audit_entries: unknown[] };
type AccountExport = AccountFile & AuditPage;

/** An account too large for one answer: a short-lived link to the whole file. */
interface ExportLink {
  download_url: string;
  expires_at: string;
}

const isLink = (answer: AccountExport | ExportLink): answer is ExportLink => typeof answer.download_url === 'string';

/**
 * `GET /api/account/export`: everything the product keeps about the signed-in account. The
 * answer carries the newest audit entries; the older ones follow in bounded answers
 * (`?audit_cursor=`, docs/product.md "Account data"), joined here into the one document. A large
 * account is answered with a link to the whole file instead, which the browser follows.
 */
export async function exportAccountData(): Promise<{ link: string } | { data: AccountFile }> {
  const answer = await api.get<AccountExport | ExportLink>('/api/account/export');
  if (isLink(answer)) return { link: answer.download_url };
  const { audit_next_cursor: first, ...data } = answer;
  const entries = [...data.audit_entries];
  for (let cursor = first; cursor;) {
    const page = await api.get<AuditPage>(`/api/account/export?audit_cursor=${encodeURIComponent(cursor)}`);
    entries.push(...page.audit_entries);
    cursor = page.audit_next_cursor;
  }
  return { data: { ...data, audit_entries: entries } };
}

/** A mutation, not a query: the export is fetched on demand and never cached in the page. */
export const useExportAccountData = () =>
  useMutation({
    mutationFn: exportAccountData,
    onSuccess: (result) => {
      if ('link' in result) {
        downloadFrom(result.link);
        return;
      }
      const { data } = result;
      downloadFile(
        new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
        `career-program-data-${data.exported_at.slice(0, 10)}.json`,
      );
    },
  });
