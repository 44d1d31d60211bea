import { useMemo } from 'react';
import { qrModules } from '../utils/qr-modules';

/** `text` as a QR code in SVG (one path: crisp at any size, on screen and in print). */
export function QrCode({ text, label }: { text: string; label: string }) {
  const modules = useMemo(() => qrModules(text), [text]);
  const path = modules.flatMap((cells, row) => cells.flatMap((dark, col) => (dark ? [`M${col} ${row}h1v1h-1z`] : []))).join('');
  const quiet = 4;
  const side = modules.length + 2 * quiet;
  return (
    <svg className="cert__qr" viewBox={`${-quiet} ${-quiet} ${side} ${side}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect x={-quiet} y={-quiet} width={side} height={side} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
