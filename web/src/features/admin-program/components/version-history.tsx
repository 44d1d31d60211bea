import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { LoadingText } from '@/components/ui/loading-text';
import { fetchFile } from '@/lib/fetch-file';
import { formatDateTime } from '@/utils/format';
import { exportVersionPath } from '../api/export-version';
import { useVersions } from '../api/get-versions';
import { useImportDraft } from '../api/import-draft';
import { useRestoreVersion } from '../api/restore-version';
import { writeError } from '../utils/write-error';
import { VersionChanges } from './version-changes';

/** Published versions (newest first, a page at a time) with what each changed, Restore and Export; Import of an exported file as the draft. */
export function VersionHistory({ revision, onMessage }: { revision: number; onMessage: (text: string, kind: 'ok' | 'error') => void }) {
  const versions = useVersions();
  const restore = useRestoreVersion();
  const importDraft = useImportDraft();
  const [opened, setOpened] = useState<number | null>(null);

  const download = async (version: number) => {
    try {
      const file = await fetchFile(exportVersionPath(version), `program-v${version}.json`);
      const url = URL.createObjectURL(file.blob);
      const link = Object.assign(document.createElement('a'), { href: url, download: file.fileName });
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      onMessage(writeError(error), 'error');
    }
  };
  const onImport = async (file: File | undefined) => {
    if (!file) return;
    let content: unknown;
    try {
      content = JSON.parse(await file.text());
    } catch {
      onMessage('The file is not JSON.', 'error');
      return;
    }
    importDraft.mutate(
      { revision, content },
      { onSuccess: () => onMessage('Imported as the draft.', 'ok'), onError: (error) => onMessage(writeError(error), 'error') },
    );
  };
  const publishedVersion = versions.data?.pages[0]?.published_version;
  const list = versions.data?.pages.flatMap((page) => page.versions) ?? [];

  return (
    <section className="pa-versions" aria-labelledby="pa-versions-title">
      <h2 id="pa-versions-title">Versions</h2>
      <div className="field">
        <label htmlFor="pa-import">Import a version file as the draft</label>
        <input id="pa-import" type="file" accept="application/json,.json" onChange={(e) => void onImport(e.target.files?.[0])} />
      </div>
      {versions.isPending && <LoadingText>Loading the versions…</LoadingText>}
      {versions.isError && <p role="alert">{writeError(versions.error)}</p>}
      <ul>
        {list.map((version) => (
          <li key={version.version}>
            <strong>{`Version ${version.version}`}</strong>
            {version.version === publishedVersion ? ' (published)' : ''}
            {` — ${formatDateTime(version.published_at)}, ${version.published_by?.email ?? 'the seed'}: ${version.change_note}`}
            {version.restored_from ? ` (restored from version ${version.restored_from})` : ''}
            <span className="pa-outline__actions">
              <Button
                variant="secondary"
                aria-expanded={opened === version.version}
                aria-controls={`pa-changes-${version.version}`}
                onClick={() => setOpened(opened === version.version ? null : version.version)}
              >
                {`What changed in version ${version.version}`}
              </Button>
              <Button
                variant="secondary"
                onClick={() =>
                  restore.mutate(
                    { version: version.version, revision },
                    {
                      onSuccess: () => onMessage(`Version ${version.version} restored as the draft.`, 'ok'),
                      onError: (error) => onMessage(writeError(error), 'error'),
                    },
                  )
                }
              >
                {`Restore version ${version.version}`}
              </Button>
              <Button variant="secondary" onClick={() => void download(version.version)}>
                {`Export version ${version.version}`}
              </Button>
            </span>
            <div id={`pa-changes-${version.version}`}>{opened === version.version && <VersionChanges version={version.version} />}</div>
          </li>
        ))}
      </ul>
      {versions.hasNextPage && (
        <Button variant="secondary" onClick={() => void versions.fetchNextPage()} disabled={versions.isFetchingNextPage}>
          {versions.isFetchingNextPage ? 'Loading…' : 'Show older versions'}
        </Button>
      )}
    </section>
  );
}
