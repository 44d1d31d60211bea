import { queryString } from '@/lib/api-client';

/** `GET /api/admin/users/export.csv`: the users list with the screen's filters, as a CSV file. */
export const exportUsersCsvPath = ({ query, filter, status }: { query: string; filter: string; status: string }) =>
  `/api/admin/users/export.csv${queryString({ query, filter, status })}`;
