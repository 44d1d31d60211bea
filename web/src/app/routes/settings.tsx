import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useForgetAccount } from '../../features/account-data/api/delete-account';
import { AccountDataSection } from '../../features/account-data/components/account-data-section';
import { ChangePasswordForm } from '../../features/auth/components/change-password-form';
import { NotificationPreferences } from '../../features/notifications/components/notification-preferences';

export default function SettingsRoute() {
  const navigate = useNavigate();
  const forgetAccount = useForgetAccount();
  return (
    <main className="settings-page">
      <h1>Settings</h1>
      <section className="settings-section" aria-labelledby="change-password-title">
        <h2 id="change-password-title">Change password</h2>
        <ChangePasswordForm />
      </section>
      <NotificationPreferences />
      <AccountDataSection
        onDeleted={async (result) => {
          await navigate(paths.accountDeleted(result.erase_after.slice(0, 10)), { replace: true });
          forgetAccount();
        }}
      />
    </main>
  );
}
