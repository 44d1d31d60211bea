import { LoadingText } from '@/components/ui/loading-text';
import { useVersion } from '../api/get-version';
import { writeError } from '../utils/write-error';
import { ChangeList } from './change-list';

/** What one published version changed from the version before it, loaded when opened. */
export function VersionChanges({ version }: { version: number }) {
  const view = useVersion(version);
  if (view.isPending) return <LoadingText>Loading the changes…</LoadingText>;
  if (view.isError) return <p role="alert">{writeError(view.error)}</p>;
  return (
    <div className="pa-version-changes">
      <p className="pa-hint">{version === 1 ? 'The first version: every module was added.' : `Compared with version ${version - 1}:`}</p>
      <ChangeList changes={view.data.changes} />
    </div>
  );
}
