import { useSearchParams } from 'react-router';
import { AccountDeletedNotice } from '../../features/account-data/components/account-deleted-notice';

export default function AccountDeletedRoute() {
  const [search] = useSearchParams();
  const eraseOn = search.get('erase_on');
  return <AccountDeletedNotice eraseOn={eraseOn && /^\d{4}-\d{2}-\d{2}$/.test(eraseOn) ? eraseOn : null} />;
}
