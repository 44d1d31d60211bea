import { LoadingText } from '@/components/ui/loading-text';
import { useUser } from '@/lib/auth';
import { useDraft } from '../api/get-draft';
import { writeError } from '../utils/write-error';
import { ProgramEditor } from './program-editor';
import type { RenderModulePage } from './module-preview';
import '../admin-program.css';

/** /admin/program (docs/product.md#program-authoring); `renderModule` draws the live preview. */
export function ProgramPage({ renderModule }: { renderModule: RenderModulePage }) {
  const draft = useDraft();
  const user = useUser();
  const adminId = user.data?.id;
  if (draft.isPending || !adminId)
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
  return <ProgramEditor key={adminId} adminId={adminId} draft={draft.data} renderModule={renderModule} />;
}
