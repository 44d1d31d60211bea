import type { KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';

export interface MetricCardProps {
  title: string;
  value: string;
  subtitle?: string;
  /** Why the value is missing ("—"), under the subtitle. */
  note?: string;
  /** The server's drill address; when present the whole card is a link to it. */
  to?: string;
}

/**
 * A metric. A drill card is a real link (Enter follows it, and it opens in a new tab like any
 * link); Space is added because docs/product.md#2-screens-and-routes asks for it and links do not answer Space natively.
 */
export function MetricCard({ title, value, subtitle, note, to }: MetricCardProps) {
  const navigate = useNavigate();
  const body = (
    <>
      <h2 className="metric-card__title">{title}</h2>
      <p className="metric-card__value">{value}</p>
      {subtitle ? <p className="metric-card__subtitle">{subtitle}</p> : null}
      {note ? <p className="metric-card__subtitle metric-card__note">{note}</p> : null}
    </>
  );
  if (!to) return <div className="metric-card">{body}</div>;
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      void navigate(to);
    }
  };
  return (
    <Link to={to} className="metric-card metric-card--link" onKeyDown={onKeyDown}>
      {body}
    </Link>
  );
}
