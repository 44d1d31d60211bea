import type { ContentChanges, ProgramDraft } from '@shared/program-authoring';
import { Button } from '@/components/ui/button';
import { formatDateTimeMedium } from '@/utils/format';
import { ChangeList } from './change-list';

/**
 * A save refused because another administrator saved first: the author's edits stay in the
 * editor, and the two sides are shown apart — what the author changed from the draft they
 * started from, and what the other administrator changed from it — with a way to replay the
 * author's changes on the other's draft.
 */
export function ConflictPanel({
  theirs,
  yours,
  theirChanges,
  onApply,
}: {
  theirs: ProgramDraft;
  yours: ContentChanges;
  theirChanges: ContentChanges;
  onApply: () => void;
}) {
  const who = theirs.updated_by?.email ?? 'Another administrator';
  return (
    <section className="pa-notice pa-notice--error" aria-labelledby="pa-conflict-title">
      <h2 id="pa-conflict-title">The draft changed while you were editing</h2>
      <p role="alert">
        {`${who} saved the draft${theirs.updated_at ? ` at ${formatDateTimeMedium(theirs.updated_at)}` : ''}. Your draft was not saved; your edits are still here and kept in this browser.`}
      </p>
      <div className="pa-conflict">
        <section aria-labelledby="pa-conflict-yours">
          <h3 id="pa-conflict-yours">Your changes</h3>
          <ChangeList changes={yours} />
        </section>
        <section aria-labelledby="pa-conflict-theirs">
          <h3 id="pa-conflict-theirs">Their changes</h3>
          <ChangeList changes={theirChanges} />
        </section>
      </div>
      <p className="pa-hint">
        Applying yours on top of theirs keeps their draft and replays each of your changes on it; where you both changed the same field,
        yours wins. Nothing is saved until you save the draft.
      </p>
      <Button onClick={onApply}>Apply mine on top of theirs</Button>
    </section>
  );
}
