import { SecuritySection } from '../../features/account-security/components/security-section';
import { ChangePasswordForm } from '../../features/auth/components/change-password-form';
import { NotificationPreferences } from '../../features/notifications/components/notification-preferences';

export default function SettingsRoute() {
  return (
    <main className="settings-page">
      <h1>Settings</h1>
      <section className="settings-section" aria-labelledby="change-password-title">
        <h2 id="change-password-title">Change password</h2>
        <ChangePasswordForm />
      </section>
      <SecuritySection />
      <NotificationPreferences />
    </main>
  );
}
