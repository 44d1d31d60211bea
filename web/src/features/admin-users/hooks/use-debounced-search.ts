import { useEffect, useRef, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '@shared/constants';

/**
 * The search box's own text, applied (trimmed) 350 ms after typing stops. When the applied value
 * changes from elsewhere (a drill link, the back button), the box follows it; the ref tells
 * those changes apart from our own so a slow round trip never overwrites what is being typed.
 */
export function useDebouncedSearch(applied: string, apply: (value: string) => void) {
  const [text, setText] = useState(applied);
  const lastApplied = useRef(applied);
  // The latest callback, so a re-render with a new function does not restart the wait.
  const applyRef = useRef(apply);
  useEffect(() => {
    applyRef.current = apply;
  });

  useEffect(() => {
    if (applied !== lastApplied.current) {
      lastApplied.current = applied;
      setText(applied);
    }
  }, [applied]);

  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === lastApplied.current) return;
    const timer = setTimeout(() => {
      lastApplied.current = trimmed;
      applyRef.current(trimmed);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return [text, setText] as const;
}
