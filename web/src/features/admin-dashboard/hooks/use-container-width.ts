import { useEffect, useRef, useState } from 'react';

/** Tracks a container's width (never below `minWidth`) so a chart's SVG is drawn at that width. */
export function useContainerWidth(minWidth: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(minWidth, Math.floor(entry.contentRect.width))));
    observer.observe(element);
    return () => observer.disconnect();
  }, [minWidth]);
  return { ref, width };
}
