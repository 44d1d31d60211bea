import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import type { AuditLogEntry } from '../api/get-audit-logs';
import { formatDateTime } from '../../../utils/format';
import { actorText, agentPreview, jsonPreview, targetText } from '../utils/format';
import { auditSentence, hasSentence, targetName } from '../utils/sentence';
import { AuditDetails } from './audit-details';

/** A user target opens that user's drawer on the users page. */
function Target({ entry }: { entry: AuditLogEntry }) {
  const text = targetText(entry.entity_type, entry.entity_id);
  if (entry.entity_type !== 'user' || !entry.entity_id) return <>{text}</>;
  return (
    <Link to={`${paths.admin.users}?user=${encodeURIComponent(entry.entity_id)}`} aria-label={`${text}: open ${targetName(entry)}`}>
      {text}
    </Link>
  );
}

export function AuditTable({ items }: { items: AuditLogEntry[] }) {
  if (items.length === 0) return <p className="audit-empty">No audit entries found.</p>;
  return (
    <div className="audit-table-scroll" tabIndex={0} role="region" aria-label="Audit entries">
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
              <td>{actorText(entry.actor_email, entry.actor_user_id)}</td>
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
    </div>
  );
}
