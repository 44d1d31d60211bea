import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left before an action may run again (e.g. one new code a minute). `start(n)` begins a
 * countdown of n seconds; `left` is 0 when the action is free.
 */
export function useCountdown(initial = 0) {
  const [until, setUntil] = useState(() => (initial > 0 ? Date.now() + initial * 1000 : 0));
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((until - now) / 1000));

  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);

  const start = useCallback((seconds: number) => {
    const current = Date.now();
    setNow(current);
    setUntil(current + seconds * 1000);
  }, []);

  return { left, start };
}
