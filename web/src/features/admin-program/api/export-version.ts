/** `GET /api/admin/program/versions/{version}/export`: a file download (lib/fetch-file). */
export const exportVersionPath = (version: number) => `/api/admin/program/versions/${version}/export`;
