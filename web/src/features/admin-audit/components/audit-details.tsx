import { asRecord, valueDiff } from '../utils/sentence';

/** The full Before/After and a key-by-key diff, on demand (the table cells stay cut at 160). */
export function AuditDetails({ before: rawBefore, after: rawAfter }: { before: unknown; after: unknown }) {
  const before = asRecord(rawBefore);
  const after = asRecord(rawAfter);
  if (!before && !after) return null;
  const changes = valueDiff(before, after);
  return (
    <details className="audit-details">
      <summary>Full values and diff</summary>
      {changes.length ? (
        <table className="audit-diff">
          <caption className="visually-hidden">Changed values</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change) => (
              <tr key={change.key}>
                <th scope="row">{change.key}</th>
                <td>
                  <del>{change.before}</del>
                </td>
                <td>
                  <ins>{change.after}</ins>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No field changed.</p>
      )}
      <p className="audit-details__label">Before</p>
      <pre className="audit-details__json">{before ? JSON.stringify(before, null, 2) : '—'}</pre>
      <p className="audit-details__label">After</p>
      <pre className="audit-details__json">{after ? JSON.stringify(after, null, 2) : '—'}</pre>
    </details>
  );
}
