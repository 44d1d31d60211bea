import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ProgramContentJson, ProgramDraft } from '@shared/program-authoring';
import { contentChanges, sameJson } from '@shared/program-changes';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import { draftQueryOptions } from '../api/get-draft';
import { useImportDraft } from '../api/import-draft';
import { usePublish } from '../api/publish';
import { useRestoreVersion } from '../api/restore-version';
import { useSaveDraft } from '../api/save-draft';
import { addModule, moveModule, removeModule, updateModule, type ModuleRef } from '../utils/draft-edit';
import { canKeepEdits, forgetEdits, keepEdits, readKeptEdits, type KeptEdits } from '../utils/kept-edits';
import { applyMineOnTheirs } from '../utils/merge-edits';
import { writeError } from '../utils/write-error';
import { ChangeList } from './change-list';
import { ConflictPanel } from './conflict-panel';
import { KeptEditsOffer } from './kept-edits-offer';
import { LeaveConfirm } from './leave-confirm';
import { ModuleEditor } from './module-editor';
import { ModulePreview, type RenderModulePage } from './module-preview';
import { ProgramFields } from './program-fields';
import { VersionHistory } from './version-history';

/** Asks before a module leaves the draft; focus moves to the safe choice. */
function RemoveConfirm({ title, onRemove, onKeep }: { title: string; onRemove: () => void; onKeep: () => void }) {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <div className="pa-confirm" role="group" aria-label={`Remove ${title}?`}>
      <p>{`Remove “${title}” from the draft? Once published it no longer counts toward learners' progress; what they completed in it stays in their data export.`}</p>
      <Button variant="danger" onClick={onRemove}>
        Remove module
      </Button>
      <Button variant="secondary" ref={keep} onClick={onKeep}>
        Keep it
      </Button>
    </div>
  );
}

/** The saved draft the author's edits start from: its revision goes with the next save. */
type Base = Pick<ProgramDraft, 'revision' | 'content'>;
/** What a restore or an import replaced, for Undo: the saved draft and the editor's content then. */
interface Replaced {
  saved: Base;
  local: ProgramContentJson;
}
interface Message {
  kind: 'ok' | 'error';
  text: string;
  undo?: Replaced;
}

/** Edits kept from an earlier visit, unless the draft already holds them. */
function keptFor(adminId: string, draft: ProgramDraft): KeptEdits | null {
  const kept = readKeptEdits(adminId);
  if (kept && sameJson(kept.content, draft.content)) {
    forgetEdits(adminId);
    return null;
  }
  return kept;
}

/**
 * The editor (docs/product.md#program-authoring). The author's work is never dropped: unsaved
 * edits are kept in this browser as they are typed and offered back on the next visit; leaving
 * with unsaved edits asks first; a save refused because someone else saved keeps the edits and
 * shows both sides; Restore and Import ask first (restore) and can be undone.
 */
export function ProgramEditor({ adminId, draft, renderModule }: { adminId: string; draft: ProgramDraft; renderModule: RenderModulePage }) {
  const queryClient = useQueryClient();
  const [offer, setOffer] = useState(() => keptFor(adminId, draft));
  const [base, setBase] = useState<Base>(draft);
  const [content, setContent] = useState<ProgramContentJson>(draft.content);
  const [selected, setSelected] = useState<ModuleRef>({ week: 0, index: 0 });
  const [note, setNote] = useState('');
  const [removing, setRemoving] = useState<ModuleRef | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [conflict, setConflict] = useState<ProgramDraft | null>(null);
  const [keeps] = useState(canKeepEdits);
  // Section texts are edited uncontrolled: content replaced from outside remounts the module editor.
  const [generation, setGeneration] = useState(0);
  const replaceContent = (next: ProgramContentJson) => {
    setContent(next);
    setGeneration((n) => n + 1);
  };
  const save = useSaveDraft();
  const publish = usePublish();
  const restore = useRestoreVersion();
  const importDraft = useImportDraft();
  const dirty = !sameJson(content, base.content);
  const guard = useLeaveGuard(dirty);

  // A newer draft from the server (a publish, a refetch) replaces the editor's content only when
  // the author has no edits of their own; with edits, the next save meets the conflict view.
  const [seen, setSeen] = useState(draft);
  if (seen !== draft) {
    setSeen(draft);
    if (sameJson(content, draft.content)) setBase(draft);
    else if (!dirty) {
      setBase(draft);
      replaceContent(draft.content);
    }
  }

  // Every edit is kept in this browser at once (no timer to lose the last keystrokes), until saved.
  // Another tab of the same administrator may keep its own edits meanwhile: only this page's copy is forgotten.
  const written = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (offer) return;
    if (dirty)
      written.current = keepEdits(adminId, { revision: base.revision, base: base.content, content, kept_at: new Date().toISOString() });
    else if (written.current !== undefined) {
      forgetEdits(adminId, written.current);
      written.current = undefined;
    }
  }, [adminId, base, content, dirty, offer]);

  const adopt = (next: ProgramDraft, local: ProgramContentJson = next.content) => {
    setBase(next);
    replaceContent(local);
    setConflict(null);
  };
  const week = content.weeks[selected.week];
  const module = week?.modules[selected.index];
  const change = (next: { content: ProgramContentJson; at: ModuleRef }) => {
    setContent(next.content);
    setSelected(next.at);
  };

  /** A refused save: on a conflict, their draft is read and both sides shown; the edits stay. */
  const onSaveError = async (error: unknown) => {
    if (!(error instanceof ApiError && error.code === 'draft_conflict')) {
      setMessage({ kind: 'error', text: writeError(error) });
      return;
    }
    setMessage(null);
    try {
      setConflict(await queryClient.fetchQuery({ ...draftQueryOptions(), staleTime: 0 }));
    } catch (readError) {
      setMessage({ kind: 'error', text: writeError(readError) });
    }
  };
  const onSave = () =>
    save.mutate(
      { revision: base.revision, content },
      {
        onSuccess: (next) => {
          // what was typed while the save was on its way stays, as edits over the saved draft
          setBase(next);
          setConflict(null);
          setMessage({ kind: 'ok', text: 'Draft saved.' });
        },
        onError: (error) => void onSaveError(error),
      },
    );
  const onApplyMine = () => {
    if (!conflict) return;
    adopt(conflict, applyMineOnTheirs(base.content, content, conflict.content));
    setSelected({ week: 0, index: 0 });
    setMessage({ kind: 'ok', text: 'Your changes are applied on top of theirs. Check them, then save the draft.' });
  };
  const onPublish = () =>
    publish.mutate(
      { revision: base.revision, change_note: note },
      {
        onSuccess: (result) => {
          setNote('');
          setMessage({ kind: 'ok', text: `Version ${result.version} published. Learners see it now.` });
        },
        onError: (error) => setMessage({ kind: 'error', text: writeError(error) }),
      },
    );

  /** A restore or an import: it replaces saved and unsaved edits alike, so Undo keeps both. */
  const replaceDraft = (write: (revision: number) => Promise<ProgramDraft>, done: string) => {
    const replaced: Replaced = { saved: { revision: draft.revision, content: draft.content }, local: content };
    write(draft.revision).then(
      (next) => {
        adopt(next);
        setSelected({ week: 0, index: 0 });
        setMessage({ kind: 'ok', text: done, undo: replaced });
      },
      (error: unknown) => {
        setMessage({ kind: 'error', text: writeError(error) });
        // the next try goes with the revision someone else just wrote
        void queryClient.invalidateQueries({ queryKey: draftQueryOptions().queryKey });
      },
    );
  };
  const onRestore = (version: number) =>
    replaceDraft((revision) => restore.mutateAsync({ version, revision }), `Version ${version} restored as the draft.`);
  const onImport = (imported: unknown) =>
    replaceDraft((revision) => importDraft.mutateAsync({ revision, content: imported }), 'Imported as the draft.');
  /** Undo: the saved draft is saved back, then the editor gets its unsaved edits back. */
  const onUndo = (replaced: Replaced) => {
    setMessage(null);
    if (sameJson(replaced.saved.content, base.content)) {
      replaceContent(replaced.local);
      return;
    }
    save.mutate(
      { revision: base.revision, content: replaced.saved.content },
      {
        onSuccess: (next) => {
          adopt(next, replaced.local);
          setMessage({ kind: 'ok', text: 'Undone: the draft is back as it was.' });
        },
        onError: (error) => {
          replaceContent(replaced.local);
          void onSaveError(error);
        },
      },
    );
  };

  if (offer)
    return (
      <main className="page admin-program">
        <h1>Program</h1>
        <KeptEditsOffer
          keptAt={offer.kept_at}
          onRestore={() => {
            setBase({ revision: offer.revision, content: offer.base });
            replaceContent(offer.content);
            // kept over a draft someone has saved since: show both sides now, not at the next save
            if (offer.revision !== draft.revision) setConflict(draft);
            setOffer(null);
          }}
          onDiscard={() => {
            forgetEdits(adminId);
            setOffer(null);
          }}
        />
      </main>
    );

  return (
    <main className="page admin-program">
      <h1>Program</h1>
      <p className="pa-hint">
        {`Published version ${draft.published_version}. Draft revision ${base.revision}`}
        {draft.updated_by ? `, last saved by ${draft.updated_by.email}` : ''}.{dirty ? ' You have unsaved edits.' : ''}
      </p>
      {!keeps && dirty && (
        <p className="pa-notice pa-notice--error" role="alert">
          This browser cannot keep your unsaved edits. Save the draft before you leave this page.
        </p>
      )}
      {message && (
        <div
          className={message.kind === 'ok' ? 'pa-notice' : 'pa-notice pa-notice--error'}
          role={message.kind === 'ok' ? 'status' : 'alert'}
        >
          <p>{message.text}</p>
          {message.undo && (
            <Button variant="secondary" onClick={() => onUndo(message.undo!)} disabled={save.isPending}>
              Undo
            </Button>
          )}
        </div>
      )}
      {conflict && (
        <ConflictPanel
          theirs={conflict}
          yours={contentChanges(base.content, content)}
          theirChanges={contentChanges(base.content, conflict.content)}
          onApply={onApplyMine}
        />
      )}
      {guard.asking && <LeaveConfirm onLeave={guard.leave} onStay={guard.stay} />}

      <ProgramFields content={content} onChange={setContent} />
      <div className="pa-layout">
        <nav className="pa-outline" aria-label="Program outline">
          {content.weeks.map((w, wi) => (
            <section key={w.week_number} aria-labelledby={`pa-week-${wi}`}>
              <h2 id={`pa-week-${wi}`}>{`Week ${w.week_number}: ${w.title}`}</h2>
              <ol>
                {w.modules.map((m, mi) => {
                  const at = { week: wi, index: mi };
                  const current = wi === selected.week && mi === selected.index;
                  return (
                    <li key={m.module_id} className={current ? 'pa-outline__current' : undefined}>
                      <Button variant="link" aria-current={current ? 'true' : undefined} onClick={() => setSelected(at)}>
                        {m.title}
                      </Button>
                      <span className="pa-outline__actions">
                        <Button variant="secondary" aria-label={`Move ${m.title} up`} onClick={() => change(moveModule(content, at, -1))}>
                          ↑
                        </Button>
                        <Button variant="secondary" aria-label={`Move ${m.title} down`} onClick={() => change(moveModule(content, at, 1))}>
                          ↓
                        </Button>
                        <Button variant="secondary" aria-label={`Remove ${m.title}`} onClick={() => setRemoving(at)}>
                          ✕
                        </Button>
                      </span>
                      {removing?.week === wi && removing.index === mi && (
                        <RemoveConfirm
                          title={m.title}
                          onRemove={() => {
                            setContent(removeModule(content, at));
                            setSelected({ week: 0, index: 0 });
                            setRemoving(null);
                          }}
                          onKeep={() => setRemoving(null)}
                        />
                      )}
                    </li>
                  );
                })}
              </ol>
              <Button variant="link" onClick={() => change(addModule(content, wi))}>{`Add a module to week ${w.week_number}`}</Button>
            </section>
          ))}
        </nav>

        <section className="pa-module" aria-labelledby="pa-module-title">
          <h2 id="pa-module-title">{module ? `Edit: ${module.title}` : 'Select a module'}</h2>
          {module && (
            <ModuleEditor
              key={`${module.module_id}.${generation}`}
              module={module}
              onChange={(patch) => setContent(updateModule(content, selected, patch))}
            />
          )}
          <div className="pa-actions">
            <Button onClick={onSave} disabled={!dirty || save.isPending}>
              {save.isPending ? 'Saving…' : 'Save draft'}
            </Button>
          </div>
          <div className="pa-publish">
            <h2>Publish</h2>
            <ChangeList changes={draft.changes} />
            <div className="field">
              <label htmlFor="pa-note">Change note (required)</label>
              <textarea id="pa-note" rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
            </div>
            {dirty && <p className="pa-hint">Save the draft before publishing.</p>}
            <Button onClick={onPublish} disabled={dirty || !note.trim() || publish.isPending}>
              {publish.isPending ? 'Publishing…' : 'Publish'}
            </Button>
          </div>
        </section>

        {module && week && <ModulePreview module={module} week={week} programTitle={content.title} renderModule={renderModule} />}
      </div>
      <VersionHistory
        busy={restore.isPending || importDraft.isPending}
        onRestore={onRestore}
        onImport={onImport}
        onMessage={(text, kind) => setMessage({ text, kind })}
      />
    </main>
  );
}
