import { useSearchParams } from 'react-router';
import { PasskeyRemovalConfirm } from '../../features/account-security/components/passkey-removal-confirm';

/** `/passkey-removal?token=…`: public, reached from a passkey_added notice's "this wasn't me" link. */
export default function PasskeyRemovalRoute() {
  const [search] = useSearchParams();
  return <PasskeyRemovalConfirm token={search.get('token')?.trim() || null} />;
}
