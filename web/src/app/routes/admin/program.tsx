import { ProgramPage } from '../../../features/admin-program/components/program-page';

/** /admin/program (docs/product.md#program-authoring). */
export default function AdminProgramRoute() {
  return <ProgramPage />;
}
