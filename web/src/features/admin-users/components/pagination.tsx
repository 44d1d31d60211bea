import { Button } from '@/components/ui/button';
import { totalText } from '@/lib/use-cursor-pages';

export interface PaginationProps {
  total: number;
  /** the total is a bound: shown as "10,000+" */
  totalIsEstimate?: boolean;
  page: number;
  hasNext: boolean;
  onPage: (page: number) => void;
  label: string;
  /** With both, the footer also reads "1–25 of 31" (rows shown on this page, the page size). */
  shown?: number;
  pageSize?: number;
}

/** "26–31 of 31" for page 2 of 25-row pages holding 6 rows; null when nothing is shown. */
export function rangeText(page: number, pageSize: number, shown: number, total: number, totalIsEstimate = false): string | null {
  if (shown <= 0) return null;
  const from = (page - 1) * pageSize + 1;
  return `${from}–${from + shown - 1} of ${totalText(Math.max(total, from + shown - 1), totalIsEstimate)}`;
}

/** 'Total: N', Previous, 'Page N', Next (docs/product.md#2-screens-and-routes); Next is disabled when has_next is false. */
export function Pagination({ total, totalIsEstimate, page, hasNext, onPage, label, shown, pageSize }: PaginationProps) {
  const range = shown !== undefined && pageSize ? rangeText(page, pageSize, shown, total, totalIsEstimate) : null;
  return (
    <nav className="admin-pagination" aria-label={label}>
      {range ? <span>{range}</span> : null}
      <span>Total: {totalText(total, totalIsEstimate)}</span>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span aria-live="polite">Page {page}</span>
      <Button variant="secondary" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
