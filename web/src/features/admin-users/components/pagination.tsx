import { Button } from '../../../components/ui/button';
import { totalText } from '../../../lib/use-cursor-pages';

export interface PaginationProps {
  total: number;
  /** the total is a bound: shown as "10,000+" */
  totalIsEstimate?: boolean;
  page: number;
  hasNext: boolean;
  onPage: (page: number) => void;
  label: string;
}

/** 'Total: N', Previous, 'Page N', Next (SPEC §2); Next is disabled when has_next is false. */
export function Pagination({ total, totalIsEstimate, page, hasNext, onPage, label }: PaginationProps) {
  return (
    <nav className="admin-pagination" aria-label={label}>
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
