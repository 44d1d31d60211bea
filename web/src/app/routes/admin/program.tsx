import { ProgramPage } from '@/features/admin-program/components/program-page';
import { ModuleContent } from '@/features/program/components/module-view';

/** /admin/program (docs/product.md#program-authoring): the preview is the learner's own module page. */
export default function AdminProgramRoute() {
  return <ProgramPage renderModule={(page) => <ModuleContent page={page} preview />} />;
}
