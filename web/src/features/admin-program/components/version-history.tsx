import { Button } from '../../../components/ui/button';
import { fetchFile } from '../../../lib/fetch-file';
import { formatDateTime } from '../../../utils/format';
import { exportVersionPath, useImportDraft, useRestoreVersion, useVersions } from '../api/program-api';
import { writeError } from './program-page';

/** Published versions with Restore and Export, and Import of an exported file as the draft. */
export function VersionHistory({ revision, onMessage }: { revision: number; onMessage: (text: string, kind: 'ok' | 'error') => void }) {
  const versions = useVersions();
  const restore = useRestoreVersion();
  const importDraft = useImportDraft();

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

  return (
    <section className="pa-versions" aria-labelledby="pa-versions-title">
      <h2 id="pa-versions-title">Versions</h2>
      <div className="field">
        <label htmlFor="pa-import">Import a version file as the draft</label>
        <input id="pa-import" type="file" accept="application/json,.json" onChange={(e) => void onImport(e.target.files?.[0])} />
      </div>
      {versions.data && (
        <ul>
          {versions.data.versions.map((version) => (
            <li key={version.version}>
              <strong>{`Version ${version.version}`}</strong>
              {version.version === versions.data.published_version ? ' (published)' : ''}
              {` — ${formatDateTime(version.published_at)}, ${version.published_by?.email ?? 'the seed'}: ${version.change_note}`}
              <span className="pa-outline__actions">
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
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
