import { Button } from '@/components/ui/button';
import { useRevokeCertificate } from '../api/revoke-certificate';
import type { AdminUserDetail } from '@shared/admin-types';
import { isBeingErased } from '../utils/account-state';
import { errorText } from '../utils/error-text';
import { formatDate } from '@/utils/format';
import { useConfirm } from './confirm-dialog';
import { reportOutcome, type Notify } from './notice';
import { personName } from './security-tab';

/** The drawer's certificate line: issued date and code (or revoked, or none) and "Revoke certificate". */
export function CertificateSection({ user, notify }: { user: AdminUserDetail; notify: Notify }) {
  const revoke = useRevokeCertificate(user.id);
  const { confirm, dialog } = useConfirm();
  const certificate = user.certificate;
  const run = async () => {
    if (!certificate) return;
    const ok = await confirm({
      title: `Revoke ${personName(user)}'s certificate?`,
      consequence: `Anyone checking code ${certificate.verification_code} will see that it was revoked, and ${personName(user)} can no longer open or download it. This cannot be undone.`,
      confirmLabel: 'Revoke certificate',
    });
    if (!ok) return;
    await reportOutcome(
      notify,
      () => revoke.mutateAsync(),
      () => ({ tone: 'success', text: 'Certificate revoked.' }),
      (error) => ({ tone: 'error', text: errorText(error, 'Failed to revoke certificate') }),
    );
  };
  return (
    <section aria-labelledby="admin-certificate-heading">
      <h3 id="admin-certificate-heading">Certificate</h3>
      {!certificate ? (
        <p className="admin-certificate">No certificate</p>
      ) : (
        <>
          <p className="admin-certificate">
            Issued {formatDate(certificate.issued_at)} · code <code>{certificate.verification_code}</code>
            {certificate.revoked_at ? <> · revoked {formatDate(certificate.revoked_at)}</> : null}
          </p>
          {certificate.revoked_at ? null : (
            <Button variant="danger" onClick={run} disabled={isBeingErased(user) || revoke.isPending}>
              {revoke.isPending ? 'Revoking…' : 'Revoke certificate'}
            </Button>
          )}
        </>
      )}
      {dialog}
    </section>
  );
}
