import { useEffect, useState } from 'react';
import { AUDIT_DEFAULT_PAGE_SIZE, SEARCH_DEBOUNCE_MS } from '@shared/constants';
import { Button } from '@/components/ui/button';
import { ExportCsvButton } from '@/components/ui/export-csv-button';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadingText } from '@/components/ui/loading-text';
import { ApiError } from '@/lib/api-client';
import { totalText, useCursorPages } from '@/lib/use-cursor-pages';
import { exportAuditCsvPath } from '../api/export-audit-csv';
import { useAuditLogs, type AuditFilters } from '../api/get-audit-logs';
import { AuditFiltersBar } from './audit-filters';
import { AuditTable } from './audit-table';
import '../admin-audit.css';

/**
 * Filters read the entries' references: a change's are written with it, a sign-in's from the
 * table's stream seconds later (docs/data-model.md "Audit entry cost"); the unfiltered log is current.
 */
const FILTER_LAG_NOTE = 'Filtered results can take a few seconds to include the newest sign-ins.';
const EMPTY: AuditFilters = { actor: '', entity_type: '', entity_id: '', action: '', date_from: '', date_to: '' };

const trimmed = (filters: AuditFilters) =>
  Object.fromEntries((Object.entries(filters) as [string, string][]).map(([key, value]) => [key, value.trim()])) as unknown as AuditFilters;

/** docs/product.md#8-error-catalogue: the server's error field, else 'HTTP {status}', else the named fallback. */
function loadError(error: unknown): string {
  if (error instanceof ApiError) return error.code ?? `HTTP ${error.status}`;
  return 'Failed to load audit logs';
}

/**
 * /admin/audit. Filters are applied trimmed, once typing pauses (the same 350 ms as user search),
 * so each keystroke does not cost a request; any filter or page-size change returns to page 1.
 */
export function AuditLogPage() {
  const [draft, setDraft] = useState<AuditFilters>(EMPTY);
  const [applied, setApplied] = useState<AuditFilters>(EMPTY);
  const [pageSize, setPageSize] = useState<number>(AUDIT_DEFAULT_PAGE_SIZE);

  useEffect(() => {
    const next = trimmed(draft);
    if (JSON.stringify(next) === JSON.stringify(applied)) return;
    const timer = setTimeout(() => setApplied(next), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, applied]);

  const paging = useCursorPages(JSON.stringify([applied, pageSize]));
  const page = paging.page;

  const logs = useAuditLogs({ ...applied, page, cursor: paging.cursor, pageSize });

  const filtered = Object.values(applied).some((value) => value !== '');

  const clear = () => {
    setDraft(EMPTY);
    setApplied(EMPTY);
  };

  return (
    <main className="page admin-audit">
      <h1>Audit log</h1>
      <AuditFiltersBar
        values={draft}
        onChange={(key, value) => setDraft((current) => ({ ...current, [key]: value }))}
        onClear={clear}
        pageSize={pageSize}
        onPageSize={setPageSize}
      />
      <ExportCsvButton path={exportAuditCsvPath(applied)} fallbackName="audit-log.csv" />
      {logs.isPending ? (
        <LoadingText>Loading audit log…</LoadingText>
      ) : logs.isError ? (
        <FormAlert>{loadError(logs.error)}</FormAlert>
      ) : (
        <>
          <AuditTable items={logs.data.items} />
          {logs.data.truncated ? <p className="audit-note">More entries may match: Next continues the search.</p> : null}
          {filtered ? <p className="audit-note">{FILTER_LAG_NOTE}</p> : null}
          <nav className="audit-pagination" aria-label="Audit log pages">
            <span>Total: {totalText(logs.data.total, logs.data.total_is_estimate)}</span>
            <Button variant="secondary" disabled={page <= 1} onClick={paging.previous}>
              Previous
            </Button>
            <span aria-live="polite">Page {page}</span>
            <Button
              variant="secondary"
              disabled={!logs.data.has_next || logs.isPlaceholderData}
              onClick={() => paging.next(logs.data.next_cursor)}
            >
              Next
            </Button>
          </nav>
        </>
      )}
    </main>
  );
}
