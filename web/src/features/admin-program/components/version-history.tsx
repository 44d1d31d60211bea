import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { LoadingText } from '@/components/ui/loading-text';
import { fetchFile } from '@/lib/fetch-file';
import { formatDateTime } from '@/utils/format';
import { exportVersionPath } from '../api/export-version';
import { useVersions } from '../api/get-versions';
import { writeError } from '../utils/write-error';
import { VersionChanges } from './version-changes';

/** Restoring replaces the whole draft: asked first, focus on the safe choice. */
function RestoreConfirm({ version, onRestore, onCancel }: { version: number; onRestore: () => void; onCancel: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="pa-confirm" role="group" aria-label={`Restore version ${version}?`}>
      <p>{`Restore version ${version} as the draft? The current draft's unsaved and saved edits will be replaced. You can undo this right after.`}</p>
      <Button variant="danger" onClick={onRestore}>
        Replace the draft
      </Button>
      <Button variant="secondary" ref={cancel} onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}

/**
 * Published versions (newest first, a page at a time) with what each changed, Restore (after a
 * confirmation) and Export; Import of an exported file as the draft. The editor performs Restore
 * and Import, so it can offer Undo.
 */
export function VersionHistory({
  busy,
  onRestore,
  onImport,
  onMessage,
}: {
  busy: boolean;
  onRestore: (version: number) => void;
  onImport: (content: unknown) => void;
  onMessage: (text: string, kind: 'ok' | 'error') => void;
}) {
  const versions = useVersions();
  const [opened, setOpened] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);

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
  const readImport = async (file: File | undefined) => {
    if (!file) return;
    let content: unknown;
    try {
      content = JSON.parse(await file.text());
    } catch {
      onMessage('The file is not JSON.', 'error');
      return;
    }
    onImport(content);
  };
  const publishedVersion = versions.data?.pages[0]?.published_version;
  const list = versions.data?.pages.flatMap((page) => page.versions) ?? [];

  return (
    <section className="pa-versions" aria-labelledby="pa-versions-title">
      <h2 id="pa-versions-title">Versions</h2>
      <div className="field">
        <label htmlFor="pa-import">Import a version file as the draft</label>
        <input
          id="pa-import"
          type="file"
          accept="application/json,.json"
          disabled={busy}
          onChange={(e) => void readImport(e.target.files?.[0])}
        />
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
                aria-expanded={confirming === version.version}
                disabled={busy}
                onClick={() => setConfirming(version.version)}
              >
                {`Restore version ${version.version}`}
              </Button>
              <Button variant="secondary" onClick={() => void download(version.version)}>
                {`Export version ${version.version}`}
              </Button>
            </span>
            {confirming === version.version && (
              <RestoreConfirm
                version={version.version}
                onRestore={() => {
                  setConfirming(null);
                  onRestore(version.version);
                }}
                onCancel={() => setConfirming(null)}
              />
            )}
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
