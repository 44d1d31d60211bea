import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { useSessions } from '../api/get-sessions';
import type { Confirmation } from '../api/confirm-identity';
import { usePasskeys } from '../api/get-passkeys';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { useRevokeSession } from '../api/revoke-session';
import type { SessionItem } from '../types';
import { formatDateTimeMedium as formatWhen } from '@/utils/format';
import { isRefusedConfirmation, securityErrorMessage } from '../utils/messages';
import { ConfirmIdentityForm } from './confirm-identity-form';

type Outcome = { tone: 'success' | 'error'; text: string } | null;

function SessionRow({ session, onSignOut, busy }: { session: SessionItem; onSignOut: (session: SessionItem) => void; busy: boolean }) {
  return (
    <li className="sec-item">
      <div className="sec-item__main">
        <span className="sec-item__title">
          {session.device}
          {session.current ? <span className="sec-badge">This device</span> : null}
        </span>
        <span className="sec-item__meta">
          {session.ip ? `IP ${session.ip} · ` : ''}Signed in {formatWhen(session.created_at)} · Last active{' '}
          {formatWhen(session.last_seen_at)}
        </span>
      </div>
      {session.current ? null : (
        <Button
          variant="secondary"
          onClick={() => onSignOut(session)}
          disabled={busy}
          aria-label={`Sign out ${session.device}, last active ${formatWhen(session.last_seen_at)}`}
        >
          Sign out
        </Button>
      )}
    </li>
  );
}

/** What "Confirm it's you" is open for: one session, or every other one. */
type Pending = { kind: 'one'; session: SessionItem } | { kind: 'others' } | null;

/**
 * "Where you're signed in": this device first, a Sign out button for each other session. Ending
 * sessions asks "Confirm it's you" first.
 */
export function SessionsList() {
  const sessions = useSessions();
  const passkeys = usePasskeys();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const others = (sessions.data ?? []).filter((session) => !session.current);

  const ask = (next: Pending) => {
    setOutcome(null);
    setConfirmError(null);
    setPending(next);
  };
  const signOut = (session: SessionItem, confirmation: Confirmation) => {
    setConfirmError(null);
    revoke.mutate(
      { id: session.id, confirmation },
      {
        onSuccess: () => {
          setPending(null);
          setOutcome({ tone: 'success', text: `Signed out ${session.device}.` });
        },
        onError: (error) => {
          if (isRefusedConfirmation(error)) return setConfirmError(securityErrorMessage(error, 'Unable to sign out that session.'));
          setPending(null);
          setOutcome({ tone: 'error', text: securityErrorMessage(error, 'Unable to sign out that session.') });
        },
      },
    );
  };
  const signOutOthers = (confirmation: Confirmation) => {
    setConfirmError(null);
    revokeOthers.mutate(confirmation, {
      onSuccess: (result) => {
        setPending(null);
        setOutcome({
          tone: 'success',
          text: result.ended === 1 ? 'Signed out 1 other session.' : `Signed out ${result.ended} other sessions.`,
        });
      },
      onError: (error) => {
        if (isRefusedConfirmation(error)) return setConfirmError(securityErrorMessage(error, 'Unable to sign out the other sessions.'));
        setPending(null);
        setOutcome({ tone: 'error', text: securityErrorMessage(error, 'Unable to sign out the other sessions.') });
      },
    });
  };

  return (
    <section className="sec-block" aria-labelledby="sessions-title">
      <h3 id="sessions-title">Where you're signed in</h3>
      {sessions.isPending ? (
        <p className="sec-muted" role="status">
          Loading sessions…
        </p>
      ) : sessions.isError ? (
        <FormAlert>Unable to load your sessions.</FormAlert>
      ) : (
        <>
          <ul className="sec-list" aria-label="Signed-in sessions">
            {sessions.data.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                onSignOut={(chosen) => ask({ kind: 'one', session: chosen })}
                busy={revoke.isPending || revokeOthers.isPending}
              />
            ))}
          </ul>
          {others.length === 0 ? <p className="sec-muted">You are not signed in anywhere else.</p> : null}
          {pending ? (
            <ConfirmIdentityForm
              key={pending.kind === 'one' ? pending.session.id : 'others'}
              purpose={pending.kind === 'one' ? `sign out ${pending.session.device}` : 'sign out everywhere else'}
              hasPasskeys={Boolean(passkeys.data?.length)}
              submitLabel={pending.kind === 'one' ? 'Sign out' : 'Sign out everywhere else'}
              pendingLabel="Signing out…"
              pending={revoke.isPending || revokeOthers.isPending}
              error={confirmError}
              failureText={pending.kind === 'one' ? 'Unable to sign out that session.' : 'Unable to sign out the other sessions.'}
              onConfirm={(confirmation) => (pending.kind === 'one' ? signOut(pending.session, confirmation) : signOutOthers(confirmation))}
              onCancel={() => setPending(null)}
            />
          ) : (
            <div className="sec-actions">
              <Button variant="secondary" onClick={() => ask({ kind: 'others' })} disabled={others.length === 0}>
                Sign out everywhere else
              </Button>
            </div>
          )}
        </>
      )}
      <div aria-live="polite">{outcome?.tone === 'success' ? <p className="sec-success">{outcome.text}</p> : null}</div>
      {outcome?.tone === 'error' ? <FormAlert>{outcome.text}</FormAlert> : null}
    </section>
  );
}
