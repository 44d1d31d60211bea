import type { ContentChanges } from '@shared/program-authoring';

const CHANGE_WORDS = { added: 'added', removed: 'removed', edited: 'edited' } as const;

/** What differs between two versions, per module: shown before publishing, per version and in a conflict. */
export function ChangeList({ changes }: { changes: ContentChanges }) {
  if (!changes.program.length && !changes.modules.length) return <p className="pa-hint">No changes.</p>;
  return (
    <ul className="pa-changes">
      {changes.program.map((field) => (
        <li key={field}>{`Program: ${field}`}</li>
      ))}
      {changes.modules.map((change) => (
        <li key={change.module_id}>
          {`${change.title}: ${CHANGE_WORDS[change.change]}`}
          {change.change === 'edited' && change.fields.length ? ` (${change.fields.join(', ')})` : ''}
        </li>
      ))}
    </ul>
  );
}
