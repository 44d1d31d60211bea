/** A spinner with a message, announced politely, for pages and sections that are loading. */
export function LoadingText({ children }: { children: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {children}
    </p>
  );
}
