import qrcode from 'qrcode-generator';

/** The dark modules of `text`'s QR code (error correction M: still reads when a print is worn), row by row. */
export function qrModules(text: string): boolean[][] {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const count = qr.getModuleCount();
  return Array.from({ length: count }, (_, row) => Array.from({ length: count }, (_, col) => qr.isDark(row, col)));
}
