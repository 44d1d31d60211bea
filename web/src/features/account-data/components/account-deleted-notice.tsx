import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatLongDate } from '@/utils/format';

/** Shown after "Delete my account": the learner is signed out, so this lives on a public page. */
export function AccountDeletedNotice({ eraseOn }: { eraseOn: string | null }) {
  return (
    <main className="page account-deleted">
      <h1>Your account has been deleted</h1>
      <p>You have been signed out on every device.</p>
      <p>
        {eraseOn ? (
          <>
            Your data will be erased for good on <strong>{formatLongDate(eraseOn)}</strong>.
          </>
        ) : (
          'Your data will be erased for good after the retention period.'
        )}{' '}
        Until then an administrator can restore your account if you change your mind. We have sent you an email with the details.
      </p>
      <p>
        You can also restore it yourself until then: <Link to={paths.login}>log in</Link> with your email and password and confirm with the
        code we email you.
      </p>
      <Link to={paths.home}>Go to the home page</Link>
    </main>
  );
}
