import { useEffect, useRef, useState } from 'react';
import type { ContentChanges, ProgramContentJson, ProgramDraft } from '@shared/program-authoring';
import { Button } from '@/components/ui/button';
import { LoadingText } from '@/components/ui/loading-text';
import { ApiError } from '@/lib/api-client';
import { useDraft } from '../api/get-draft';
import { usePublish } from '../api/publish';
import { useSaveDraft } from '../api/save-draft';
import { addModule, moveModule, removeModule, updateModule, type ModuleRef } from '../utils/draft-edit';
import { writeError } from '../utils/write-error';
import { ChangeList } from './change-list';
import { ModuleEditor } from './module-editor';
import { ProgramFields } from './program-fields';
import { ModulePreview, type RenderModulePage } from './module-preview';
import { VersionHistory } from './version-history';
import '../admin-program.css';

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

/** /admin/program (docs/product.md#program-authoring); `renderModule` draws the live preview. */
export function ProgramPage({ renderModule }: { renderModule: RenderModulePage }) {
  const draft = useDraft();
  if (draft.isPending)
    return (
      <main className="page">
        <h1>Program</h1>
        <LoadingText>Loading the program…</LoadingText>
      </main>
    );
  if (draft.isError)
    return (
      <main className="page">
        <h1>Program</h1>
        <p role="alert">{writeError(draft.error)}</p>
      </main>
    );
  return <ProgramEditor draft={draft.data} renderModule={renderModule} />;
}

function ProgramEditor({ draft, renderModule }: { draft: ProgramDraft; renderModule: RenderModulePage }) {
  const [content, setContent] = useState<ProgramContentJson>(draft.content);
  const [selected, setSelected] = useState<ModuleRef>({ week: 0, index: 0 });
  const [note, setNote] = useState('');
  const [removing, setRemoving] = useState<ModuleRef | null>(null);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string; changes?: ContentChanges } | null>(null);
  const save = useSaveDraft();
  const publish = usePublish();
  const dirty = JSON.stringify(content) !== JSON.stringify(draft.content);
  // A new draft from the server (saved, restored, imported, published) replaces the local edits.
  const [seen, setSeen] = useState(draft.content);
  if (seen !== draft.content) {
    setSeen(draft.content);
    setContent(draft.content);
  }

  const week = content.weeks[selected.week];
  const module = week?.modules[selected.index];
  const change = (next: { content: ProgramContentJson; at: ModuleRef }) => {
    setContent(next.content);
    setSelected(next.at);
  };

  const onSave = () =>
    save.mutate(
      { revision: draft.revision, content },
      {
        onSuccess: () => setMessage({ kind: 'ok', text: 'Draft saved.' }),
        onError: (error) =>
          setMessage({
            kind: 'error',
            text: writeError(error),
            changes: error instanceof ApiError ? (error.body.changes as ContentChanges | undefined) : undefined,
          }),
      },
    );
  const onPublish = () =>
    publish.mutate(
      { revision: draft.revision, change_note: note },
      {
        onSuccess: (result) => {
          setNote('');
          setMessage({ kind: 'ok', text: `Version ${result.version} published. Learners see it now.` });
        },
        onError: (error) => setMessage({ kind: 'error', text: writeError(error) }),
      },
    );

  return (
    <main className="page admin-program">
      <h1>Program</h1>
      <p className="pa-hint">
        {`Published version ${draft.published_version}. Draft revision ${draft.revision}`}
        {draft.updated_by ? `, last saved by ${draft.updated_by.email}` : ''}.
      </p>
      {message && (
        <div
          className={message.kind === 'ok' ? 'pa-notice' : 'pa-notice pa-notice--error'}
          role={message.kind === 'ok' ? 'status' : 'alert'}
        >
          <p>{message.text}</p>
          {message.changes && <ChangeList changes={message.changes} />}
        </div>
      )}

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
            <ModuleEditor key={module.module_id} module={module} onChange={(patch) => setContent(updateModule(content, selected, patch))} />
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
      <VersionHistory revision={draft.revision} onMessage={(text, kind) => setMessage({ text, kind })} />
    </main>
  );
}
