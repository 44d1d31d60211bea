import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent, type SyntheticEvent } from 'react';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadingText } from '@/components/ui/loading-text';
import { useAdminUser } from '../api/get-user';
import type { AdminUserDetail } from '@shared/admin-types';
import { isBeingErased } from '../utils/account-state';
import { errorText } from '../utils/error-text';
import { AuditTab } from './audit-tab';
import { ModulesTab } from './modules-tab';
import type { Notice } from './notice';
import { ProfileTab } from './profile-tab';
import { RestoreButton } from './restore-button';
import { isUserLocked, personName, SecurityTab } from './security-tab';
import { StatusBadge } from './status-badge';
import { Tabs, type TabDef } from './tabs';

type TabKey = 'profile' | 'modules' | 'security' | 'audit';

const TABS: TabDef<TabKey>[] = [
  { key: 'profile', label: 'Profile' },
  { key: 'modules', label: 'Modules' },
  { key: 'security', label: 'Security' },
  { key: 'audit', label: 'Audit' },
];

function Banners({ user, notify }: { user: AdminUserDetail; notify: (notice: Notice | null) => void }) {
  return (
    <div className="admin-banners">
      {isBeingErased(user) ? <p className="admin-banner admin-banner--danger">This account is being erased.</p> : null}
      {isUserLocked(user) ? <p className="admin-banner admin-banner--warn">Account is locked.</p> : null}
      {user.status === 'deleted' ? (
        <div className="admin-banner admin-banner--danger">
          <p>Account is soft-deleted. Restore to re-enable access.</p>
          <RestoreButton userId={user.id} notify={notify} label="Restore" />
        </div>
      ) : null}
      {user.verified === false ? <p className="admin-banner admin-banner--info">Email address is unverified.</p> : null}
      {user.email_suppressed === 'bounce' ? <p className="admin-banner admin-banner--warn">Email bouncing</p> : null}
      {user.email_suppressed === 'complaint' ? <p className="admin-banner admin-banner--warn">Marked as spam</p> : null}
    </div>
  );
}

function DrawerBody({ userId, onClose }: { userId: string; onClose: () => void }) {
  const user = useAdminUser(userId);
  const [tab, setTab] = useState<TabKey>('profile');
  const [notice, setNotice] = useState<Notice | null>(null);

  if (user.isPending) return <LoadingText>Loading user…</LoadingText>;
  if (user.isError) return <FormAlert>{errorText(user.error, 'Failed to load user')}</FormAlert>;
  const data = user.data;
  return (
    <>
      <Banners user={data} notify={setNotice} />
      <div className="admin-notice">
        {notice ? (
          <FormAlert tone={notice.tone}>
            {notice.text}
            {notice.action ? (
              <>
                {' '}
                <button type="button" className="button button--link" onClick={notice.action.run}>
                  {notice.action.label}
                </button>
              </>
            ) : null}
          </FormAlert>
        ) : null}
      </div>
      <Tabs tabs={TABS} active={tab} onChange={setTab} label="User details">
        {tab === 'profile' ? <ProfileTab user={data} notify={setNotice} /> : null}
        {tab === 'modules' ? <ModulesTab user={data} notify={setNotice} /> : null}
        {tab === 'security' ? <SecurityTab user={data} notify={setNotice} onDeleted={onClose} /> : null}
        {tab === 'audit' ? <AuditTab userId={data.id} /> : null}
      </Tabs>
    </>
  );
}

/** Under the 'User {id}' title: who this is (name, email) and their state as chips. */
function Who({ id, user }: { id: string; user: AdminUserDetail | undefined }) {
  if (!user) return null;
  return (
    <div className="admin-drawer__who">
      <p id={id} className="admin-drawer__name">
        {personName(user)}
        {user.email && personName(user) !== user.email ? <span className="admin-drawer__email"> · {user.email}</span> : null}
      </p>
      <p className="admin-chips" aria-label="Account state">
        <StatusBadge status={user.status} isLocked={user.is_locked ?? undefined} />
        {user.verified === false ? <span className="admin-badge admin-badge--unverified">unverified</span> : null}
        {user.verified === true ? <span className="admin-badge">verified</span> : null}
        {user.role ? <span className="admin-badge">{user.role}</span> : null}
      </p>
    </div>
  );
}

/**
 * A modal side panel over the users list, on a native <dialog> opened with showModal(): the
 * browser makes the page behind it inert and keeps Tab inside it. Escape, a click on the dimmed
 * backdrop and the close button close it; focus then returns to the row's button that opened it.
 */
export function UserDrawer({ userId, onClose }: { userId: string; onClose: () => void }) {
  const titleId = useId();
  const whoId = useId();
  const user = useAdminUser(userId);
  const dialog = useRef<HTMLDialogElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal();
    panel.current?.focus();
    return () => {
      if (element?.open) element.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  // A confirmation open inside the drawer handles its own Escape: the drawer stays.
  const confirming = () => Boolean(dialog.current?.querySelector('[role="alertdialog"]'));
  const onCancel = (event: SyntheticEvent) => {
    event.preventDefault();
    if (!confirming()) onClose();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    // one path in every browser (and in jsdom, which has no cancel event)
    event.preventDefault();
    if (!confirming()) onClose();
  };
  // The dialog element itself is hit only outside the panel: on the backdrop.
  const onClick = (event: MouseEvent) => {
    if (event.target === event.currentTarget) onClose();
  };
  return (
    // Escape (onCancel) is the keyboard path; the click closes on the backdrop only, a pointer's extra.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialog}
      className="admin-drawer"
      // The person's name is part of the dialog's name, not only the id.
      aria-labelledby={user.data ? `${titleId} ${whoId}` : titleId}
      onCancel={onCancel}
      onKeyDown={onKeyDown}
      onClick={onClick}
    >
      <div ref={panel} className="admin-drawer__panel" tabIndex={-1}>
        <header className="admin-drawer__header">
          <h2 id={titleId}>User {userId}</h2>
          <button type="button" className="button button--secondary" onClick={onClose} aria-label="Close">
            ×
          </button>
        </header>
        <Who id={whoId} user={user.data} />
        <DrawerBody userId={userId} onClose={onClose} />
      </div>
    </dialog>
  );
}
