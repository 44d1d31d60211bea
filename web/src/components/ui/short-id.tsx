import { useEffect, useState } from 'react';

/** Ids longer than this show their first 8 characters and a copy button (docs/product.md#1013-admin-tables-fit). */
const SHORT_AT = 12;

export const shortId = (id: string) => (id.length > SHORT_AT ? `${id.slice(0, 8)}…` : id);

/**
 * A long id cut to its first characters (the whole id in `title`), with a button that copies the
 * whole id: admin tables keep every column on a 1280 px screen without losing the value.
 */
export function ShortId({
  id,
  what = 'id',
  buttonOnly = false,
}: {
  id: string;
  what?: string;
  /** the cut id is shown beside it already (e.g. as a link) */ buttonOnly?: boolean;
}) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  if (id.length <= SHORT_AT) return buttonOnly ? null : <>{id}</>;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <span className="short-id">
      {buttonOnly ? null : <code title={id}>{shortId(id)}</code>}
      <button type="button" className="short-id__copy" aria-label={`Copy ${what} ${id}`} onClick={() => void copy()}>
        {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Copy failed' : 'Copy'}
      </button>
      <span className="visually-hidden" role="status">
        {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Copy failed' : ''}
      </span>
    </span>
  );
}
