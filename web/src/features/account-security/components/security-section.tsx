import '../account-security.css';
import { PasskeysPanel } from './passkeys-panel';
import { SessionsList } from './sessions-list';

/** Settings → Security (docs/security.md#account-security-center): where you're signed in, and passkeys. */
export function SecuritySection() {
  return (
    <section className="settings-section sec-section" aria-labelledby="security-title">
      <h2 id="security-title">Security</h2>
      <SessionsList />
      <PasskeysPanel />
    </section>
  );
}
