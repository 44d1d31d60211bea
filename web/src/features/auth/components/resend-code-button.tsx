import { Button } from '@/components/ui/button';

interface ResendCodeButtonProps {
  onClick: () => void;
  /** Seconds before another code may be sent; the button counts down meanwhile. */
  secondsLeft: number;
  pending: boolean;
}

/** 'Send a new code', disabled with a visible countdown while the one-a-minute limit holds. */
export function ResendCodeButton({ onClick, secondsLeft, pending }: ResendCodeButtonProps) {
  const label = pending ? 'Sending…' : secondsLeft > 0 ? `Send a new code (${secondsLeft} s)` : 'Send a new code';
  return (
    <Button variant="secondary" onClick={onClick} disabled={pending || secondsLeft > 0}>
      {label}
    </Button>
  );
}
