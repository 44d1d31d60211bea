import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { formatDateTimeMedium } from '@/utils/format';

/** Edits this browser kept from an earlier visit (a reload, a closed tab): restore them or discard them. */
export function KeptEditsOffer({ keptAt, onRestore, onDiscard }: { keptAt: string; onRestore: () => void; onDiscard: () => void }) {
  const restore = useRef<HTMLButtonElement>(null);
  useEffect(() => restore.current?.focus(), []);
  return (
    <section className="pa-notice" aria-labelledby="pa-kept-title">
      <h2 id="pa-kept-title">{`You have unsaved edits from ${formatDateTimeMedium(keptAt)}`}</h2>
      <p>
        This browser kept them when you left the page. Restore them to keep working on them, or discard them to start from the saved draft.
      </p>
      <div className="pa-dialog__actions">
        <Button ref={restore} onClick={onRestore}>
          Restore
        </Button>
        <Button variant="secondary" onClick={onDiscard}>
          Discard
        </Button>
      </div>
    </section>
  );
}
