import type { ReactNode } from 'react';

export interface ScrollTableProps {
  /**
   * Names the table's scroll region: it then takes keyboard focus, so a keyboard user can scroll
   * a table wider than the screen. Without it the wrapper only scrolls (a table that fits its
   * panel, e.g. in the user drawer).
   */
  label?: string;
  children: ReactNode;
}

/** A data table's frame: a bordered box that scrolls sideways when the table is wider than the page. */
export function ScrollTable({ label, children }: ScrollTableProps) {
  if (!label) return <div className="table-scroll">{children}</div>;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
