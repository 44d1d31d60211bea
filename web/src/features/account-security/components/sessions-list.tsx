import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { useSessions } from '../api/get-sessions';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { useRevokeSession } from '../api/revoke-session';
import type { SessionItem } from '../types';
import { formatDateTimeMedium as formatWhen } from '@/utils/format';
import { securityErrorMessage } from '../utils/messages';

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

/** "Where you're signed in": this device first, a Sign out button for each other session. */
export function SessionsList() {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const others = (sessions.data ?? []).filter((session) => !session.current);

  const signOut = (session: SessionItem) => {
    setOutcome(null);
    revoke.mutate(session.id, {
      onSuccess: () => setOutcome({ tone: 'success', text: `Signed out ${session.device}.` }),
      onError: (error) => setOutcome({ tone: 'error', text: securityErrorMessage(error, 'Unable to sign out that session.') }),
    });
  };
  const signOutOthers = () => {
    setOutcome(null);
    revokeOthers.mutate(undefined, {
      onSuccess: (result) =>
        setOutcome({
          tone: 'success',
          text: result.ended === 1 ? 'Signed out 1 other session.' : `Signed out ${result.ended} other sessions.`,
        }),
      onError: (error) => setOutcome({ tone: 'error', text: securityErrorMessage(error, 'Unable to sign out the other sessions.') }),
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
              <SessionRow key={session.id} session={session} onSignOut={signOut} busy={revoke.isPending || revokeOthers.isPending} />
            ))}
          </ul>
          {others.length === 0 ? <p className="sec-muted">You are not signed in anywhere else.</p> : null}
          <div className="sec-actions">
            <Button variant="secondary" onClick={signOutOthers} disabled={others.length === 0 || revokeOthers.isPending}>
              {revokeOthers.isPending ? 'Signing out…' : 'Sign out everywhere else'}
            </Button>
          </div>
        </>
      )}
      <div aria-live="polite">{outcome?.tone === 'success' ? <p className="sec-success">{outcome.text}</p> : null}</div>
      {outcome?.tone === 'error' ? <FormAlert>{outcome.text}</FormAlert> : null}
    </section>
  );
}
