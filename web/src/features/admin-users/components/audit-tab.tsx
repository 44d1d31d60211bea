import { FormAlert } from '@/components/ui/form-alert';
import { LoadingText } from '@/components/ui/loading-text';
import { ScrollTable } from '@/components/ui/scroll-table';
import { useCursorPages } from '@/lib/use-cursor-pages';
import { useUserAuditLogs } from '../api/get-user-audit-logs';
import { errorText } from '../utils/error-text';
import { formatDateTime } from '@/utils/format';
import { jsonPreview } from '../utils/format';
import { Pagination } from './pagination';

/** The user's own audit trail, 25 entries a page (docs/product.md#9-business-constants-and-limits). */
export function AuditTab({ userId }: { userId: string }) {
  const paging = useCursorPages(userId);
  const page = paging.page;
  const audit = useUserAuditLogs(userId, page, paging.cursor);
  if (audit.isPending) return <LoadingText>Loading audit entries…</LoadingText>;
  if (audit.isError) return <FormAlert>{errorText(audit.error, 'Failed to load audit events')}</FormAlert>;
  const { items, total, has_next, next_cursor, total_is_estimate } = audit.data;
  return (
    <div>
      {items.length === 0 ? (
        <p className="admin-empty">No audit entries yet.</p>
      ) : (
        <ScrollTable>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {items.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDateTime(entry.created_at)}</td>
                  <td>{entry.action || '—'}</td>
                  <td className="admin-table__json">{jsonPreview(entry.old_values)}</td>
                  <td className="admin-table__json">{jsonPreview(entry.new_values)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
      {/* the tab reads the entries' references: a change's are written with it, a sign-in's by the table's stream seconds later */}
      <p className="admin-lag-note">Sign-ins can take a few seconds to appear here; changes appear at once.</p>
      <Pagination
        label="Audit pages"
        total={total}
        totalIsEstimate={total_is_estimate}
        page={page}
        hasNext={has_next && !audit.isPlaceholderData}
        onPage={(next) => (next > page ? paging.next(next_cursor) : paging.previous())}
      />
    </div>
  );
}
