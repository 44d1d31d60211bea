/** A certificate's date, written out ("March 4, 2026"), in the reader's language. */
export const certificateDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
