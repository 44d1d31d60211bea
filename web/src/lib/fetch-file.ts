import { ApiError, NetworkError } from './api-client';

export interface FetchedFile {
  blob: Blob;
  /** the name the server gave in Content-Disposition, else `fallbackName` */
  fileName: string;
  /** the server cut the file at its row cap (X-Export-Truncated, docs/product.md "CSV exports") */
  truncated: boolean;
  /** rows in the file (X-Export-Rows), when the server says */
  rows: number | null;
}

/** GETs a file the API answers as an attachment; a non-ok answer throws ApiError like every call. */
export async function fetchFile(path: string, fallbackName: string): Promise<FetchedFile> {
  let response: Response;
  try {
    response = await fetch(path, { method: 'GET', credentials: 'same-origin' });
  } catch (error) {
    throw new NetworkError(error);
  }
  if (!response.ok) {
    let body: Record<string, unknown> = {};
    try {
      body = (await response.json()) as Record<string, unknown>;
    } catch {
      body = {};
    }
    throw new ApiError(response.status, body);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const rows = Number(response.headers.get('x-export-rows') ?? NaN);
  return {
    blob: await response.blob(),
    fileName,
    truncated: response.headers.get('x-export-truncated') === 'true',
    rows: Number.isInteger(rows) ? rows : null,
  };
}
