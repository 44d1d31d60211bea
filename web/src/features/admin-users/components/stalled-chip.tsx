import { useModuleTitle } from '../api/get-module-title';

/**
 * The removable chip of `?stalled_at=<module id>` (a row of the dashboard's funnel): the list
 * shows the learners the funnel counts in progress at that module. Until the title is known
 * (or for a module no longer published) the chip names the id.
 */
export function StalledChip({ moduleId, onRemove }: { moduleId: string; onRemove: () => void }) {
  const title = useModuleTitle(moduleId) ?? moduleId;
  return (
    <p className="admin-chips admin-users__stalled">
      <span className="admin-badge admin-badge--filter">
        Stalled at: {title}
        <button type="button" className="admin-badge__remove" aria-label={`Remove filter Stalled at: ${title}`} onClick={onRemove}>
          ×
        </button>
      </span>
    </p>
  );
}
