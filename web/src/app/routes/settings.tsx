import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { AccountDataSection } from '../../features/account-data/components/account-data-section';
import { SecuritySection } from '../../features/account-security/components/security-section';
import { ChangePasswordForm } from '../../features/auth/components/change-password-form';
import { NotificationPreferences } from '../../features/notifications/components/notification-preferences';

export default function SettingsRoute() {
  const navigate = useNavigate();
  return (
    <main className="settings-page">
      <h1>Settings</h1>
      <section className="settings-section" aria-labelledby="change-password-title">
        <h2 id="change-password-title">Change password</h2>
        <ChangePasswordForm />
      </section>
      <SecuritySection />
      <NotificationPreferences />
      <AccountDataSection onDeleted={(result) => navigate(paths.accountDeleted(result.erase_after.slice(0, 10)), { replace: true })} />
    </main>
  );
}
