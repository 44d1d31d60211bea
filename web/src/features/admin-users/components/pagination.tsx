import { Button } from '../../../components/ui/button';

export interface PaginationProps {
  total: number;
  page: number;
  hasNext: boolean;
  onPage: (page: number) => void;
  label: string;
}

/** 'Total: N', Previous, 'Page N', Next (SPEC §2); Next is disabled when has_next is false. */
export function Pagination({ total, page, hasNext, onPage, label }: PaginationProps) {
  return (
    <nav className="admin-pagination" aria-label={label}>
      <span>Total: {total}</span>
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
