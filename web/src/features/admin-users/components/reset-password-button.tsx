import { Button } from '@/components/ui/button';
import { useSendPasswordReset } from '../api/send-password-reset';
import { errorText } from '../utils/error-text';
import { reportOutcome, type Notice, type Notify } from './notice';

/** docs/product.md#8-error-catalogue: each delivery outcome has its own text; sandbox and allowlist are informational. */
export function resetOutcome(delivery: string | undefined): Notice {
  if (delivery === 'sent') return { tone: 'success', text: 'Reset email sent.' };
  if (delivery === 'sandbox') return { tone: 'info', text: 'Reset email sent to AHA sandbox.' };
  if (delivery === 'allowlist_block') return { tone: 'info', text: 'Email suppressed by allowlist.' };
  return { tone: 'error', text: 'Failed to send reset email.' };
}

export function ResetPasswordButton({ userId, notify, disabled = false }: { userId: string; notify: Notify; disabled?: boolean }) {
  const reset = useSendPasswordReset(userId);
  const send = () =>
    reportOutcome(
      notify,
      () => reset.mutateAsync(),
      (result) => resetOutcome(result?.delivery),
      (error) => ({ tone: 'error', text: errorText(error, 'Failed to send reset email.') }),
    );
  return (
    <Button variant="secondary" onClick={send} disabled={disabled || reset.isPending}>
      {reset.isPending ? 'Sending…' : 'Send password reset'}
    </Button>
  );
}
