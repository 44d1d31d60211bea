import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldErrors } from 'react-hook-form';
import { ADMIN_PROFILE_FIELDS, adminProfileSchema, type AdminProfileValues } from '@shared/account-forms';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { useUpdateUser } from '../api/update-user';
import type { AdminUserDetail } from '@shared/admin-types';
import { isBeingErased } from '../utils/account-state';
import { errorText } from '../utils/error-text';
import { formatDate, formatDateTime } from '@/utils/format';
import { CertificateSection } from './certificate-section';
import { reportOutcome, type Notify } from './notice';
import { ResetPasswordButton } from './reset-password-button';
import { userStatusLabel } from './status-badge';

const verifiedText = (verified: boolean | null | undefined) => (verified === true ? 'Yes' : verified === false ? 'No' : '—');

function Facts({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="admin-facts">
      {rows.map(([term, value]) => (
        <div key={term} className="admin-facts__row">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function EditProfileForm({ user, notify }: { user: AdminUserDetail; notify: Notify }) {
  // react-hook-form with the shared schema (shared/account-forms.ts): the API's rules, checked
  // before the call; a refused field shows the same code the server would answer, in the notice.
  const form = useForm<AdminProfileValues>({
    resolver: zodResolver(adminProfileSchema),
    defaultValues: { first_name: user.first_name ?? '', last_name: user.last_name ?? '', email: user.email },
  });
  const update = useUpdateUser(user.id);
  // an account being erased takes no change: the fields and buttons stay, disabled
  const erasing = isBeingErased(user);

  const save = (values: AdminProfileValues) =>
    reportOutcome(
      notify,
      () => update.mutateAsync(values),
      () => ({ tone: 'success', text: 'Profile updated.' }),
      (error) => ({ tone: 'error', text: errorText(error, 'Failed to update user') }),
    );

  const refuse = (errors: FieldErrors<AdminProfileValues>) => {
    const field = ADMIN_PROFILE_FIELDS.find((name) => errors[name]?.message);
    if (field) notify({ tone: 'error', text: errors[field]?.message ?? '' });
  };

  return (
    <form className="form" onSubmit={(event) => void form.handleSubmit(save, refuse)(event)} noValidate>
      <TextField label="First name" {...form.register('first_name')} autoComplete="off" disabled={erasing} />
      <TextField label="Last name" {...form.register('last_name')} autoComplete="off" disabled={erasing} />
      <TextField label="Email" type="email" {...form.register('email')} autoComplete="off" disabled={erasing} />
      <div className="form__actions">
        <Button type="submit" disabled={erasing || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save changes'}
        </Button>
        <ResetPasswordButton userId={user.id} notify={notify} disabled={erasing} />
      </div>
    </form>
  );
}

export function ProfileTab({ user, notify }: { user: AdminUserDetail; notify: Notify }) {
  const activity = user.recent_activity ?? {};
  return (
    <div className="admin-drawer__sections">
      <section aria-labelledby="admin-facts-heading">
        <h3 id="admin-facts-heading">Account facts</h3>
        <Facts
          rows={[
            ['Email', user.email],
            ['Status', userStatusLabel(user.status, user.is_locked)],
            ['Role', user.role || '—'],
            ['Verified', verifiedText(user.verified)],
            ['Registered', formatDate(user.created_at)],
            ['Last login', formatDateTime(user.last_login_at)],
          ]}
        />
      </section>
      <CertificateSection user={user} notify={notify} />
      <section aria-labelledby="admin-edit-heading">
        <h3 id="admin-edit-heading">Edit profile</h3>
        {/* Re-keyed on the server's values so a refetch after saving shows what was stored. */}
        <EditProfileForm key={`${user.first_name}|${user.last_name}|${user.email}`} user={user} notify={notify} />
      </section>
      <section aria-labelledby="admin-activity-heading">
        <h3 id="admin-activity-heading">Recent activity</h3>
        <Facts
          rows={[
            ['Last login', formatDateTime(activity.last_login_at ?? user.last_login_at)],
            ['Last progress', formatDateTime(activity.last_progress_at)],
            ['Last enrollment', formatDateTime(activity.last_enrollment_at)],
          ]}
        />
      </section>
    </div>
  );
}
