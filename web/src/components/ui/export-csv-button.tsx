import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../lib/api-client';
import { fetchFile } from '../../lib/fetch-file';
import { downloadFile } from '../../utils/download-file';
import { formatCount } from '../../utils/format';
import { Button } from './button';

export interface ExportCsvButtonProps {
  /** the export's address with the screen's filters (each feature's api builds it) */
  path: string;
  fallbackName: string;
}

/**
 * "Export CSV": downloads what the screen lists with its filters (docs/product.md "CSV exports").
 * A mutation, not a query: the file is fetched on demand and never cached. A file cut at the
 * server's row cap says so next to the button.
 */
export function ExportCsvButton({ path, fallbackName }: ExportCsvButtonProps) {
  const exporting = useMutation({
    mutationFn: () => fetchFile(path, fallbackName),
    onSuccess: (file) => downloadFile(file.blob, file.fileName),
  });
  return (
    <div className="export-csv">
      <Button variant="secondary" onClick={() => exporting.mutate()} disabled={exporting.isPending} aria-busy={exporting.isPending}>
        {exporting.isPending ? 'Exporting…' : 'Export CSV'}
      </Button>
      {exporting.isSuccess && exporting.data.truncated ? (
        <span role="status" className="export-csv__status">
          The file holds the first {formatCount(exporting.data.rows ?? 10_000)} rows: narrow the filters to export the rest.
        </span>
      ) : null}
      {exporting.isError ? (
        <span role="alert" className="export-csv__error">
          Export failed:{' '}
          {exporting.error instanceof ApiError ? (exporting.error.code ?? `HTTP ${exporting.error.status}`) : 'network error'}
        </span>
      ) : null}
    </div>
  );
}
