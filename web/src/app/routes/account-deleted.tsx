import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useForgetAccount } from '../../features/account-data/api/delete-account';
import { AccountDeletedNotice } from '../../features/account-data/components/account-deleted-notice';

export default function AccountDeletedRoute() {
  const [search] = useSearchParams();
  const forgetAccount = useForgetAccount();
  // The session ended with the deletion. Forgotten here, once the signed-in pages are gone, so the
  // session gate cannot race the way to this page with a redirect to /login.
  useEffect(() => forgetAccount(), [forgetAccount]);
  const eraseOn = search.get('erase_on');
  return <AccountDeletedNotice eraseOn={eraseOn && /^\d{4}-\d{2}-\d{2}$/.test(eraseOn) ? eraseOn : null} />;
}
