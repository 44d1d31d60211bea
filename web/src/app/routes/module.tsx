import { useParams } from 'react-router';
import { ModuleView } from '../../features/program/components/module-view';

export default function ModuleRoute() {
  const { slug = '' } = useParams();
  return <ModuleView slug={slug} />;
}
