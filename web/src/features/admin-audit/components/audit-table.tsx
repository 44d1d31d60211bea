import { Link } from 'react-router';
import { ScrollTable } from '@/components/ui/scroll-table';
import { ShortId, shortId } from '@/components/ui/short-id';
import { paths } from '@/config/paths';
import type { AuditLogEntry } from '../api/get-audit-logs';
import { formatDateTime } from '@/utils/format';
import { actorText, agentPreview, jsonPreview, targetText } from '../utils/format';
import { auditSentence, hasSentence, targetName } from '../utils/sentence';
import { AuditDetails } from './audit-details';

/**
 * A user target opens that user's drawer on the users page. A long id is cut to 8 characters
 * with a copy button, so the column fits a 1280 px screen (docs/product.md#1013-admin-tables-fit).
 */
function Target({ entry }: { entry: AuditLogEntry }) {
  const id = entry.entity_id;
  if (!id) return <>{targetText(entry.entity_type, id)}</>;
  const what = `${entry.entity_type || 'target'} id`;
  const shown = targetText(entry.entity_type, shortId(id));
  const link =
    entry.entity_type === 'user' ? (
      <Link
        to={`${paths.admin.users}?user=${encodeURIComponent(id)}`}
        aria-label={`${targetText(entry.entity_type, id)}: open ${targetName(entry)}`}
      >
        {shown}
      </Link>
    ) : (
      <span title={id}>{shown}</span>
    );
  return (
    <span className="audit-table__target">
      {link}
      <ShortId id={id} what={what} buttonOnly />
    </span>
  );
}

export function AuditTable({ items }: { items: AuditLogEntry[] }) {
  if (items.length === 0) return <p className="audit-empty">No audit entries found.</p>;
  return (
    <ScrollTable label="Audit entries">
      <table className="audit-table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
            <th scope="col">IP / Agent</th>
          </tr>
        </thead>
        <tbody>
          {items.map((entry) => (
            <tr key={entry.id}>
              <td>{formatDateTime(entry.created_at)}</td>
              <td className="audit-table__actor">
                {entry.actor_email ? (
                  actorText(entry.actor_email, entry.actor_user_id)
                ) : entry.actor_user_id ? (
                  <ShortId id={entry.actor_user_id} what="actor id" />
                ) : (
                  '—'
                )}
              </td>
              <td>
                {hasSentence(entry) ? (
                  <>
                    <span className="audit-table__sentence">{auditSentence(entry)}</span>
                    {' · '}
                    <code>{entry.action}</code>
                  </>
                ) : (
                  entry.action || '—'
                )}
                <AuditDetails before={entry.old_values} after={entry.new_values} />
              </td>
              <td>
                <Target entry={entry} />
              </td>
              <td className="audit-table__json">{jsonPreview(entry.old_values)}</td>
              <td className="audit-table__json">{jsonPreview(entry.new_values)}</td>
              <td>
                <span className="audit-table__ip">{entry.ip || '—'}</span>
                {entry.user_agent ? (
                  <span className="audit-table__agent" title={entry.user_agent}>
                    {agentPreview(entry.user_agent)}
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}
