import { useSearchParams } from 'react-router';
import { UnsubscribeConfirm } from '../../features/notifications/components/unsubscribe-confirm';

/** `/unsubscribe?token=…`: public, reached from a reminder's link (docs/product.md#unsubscribe). */
export default function UnsubscribeRoute() {
  const [search] = useSearchParams();
  return <UnsubscribeConfirm token={search.get('token')?.trim() || null} />;
}
