/** A drawer-wide message: the outcome of the last action, whichever tab started it. */
export type Notice = {
  tone: 'success' | 'info' | 'error';
  text: string;
  /** A follow-up offered with the message, e.g. Undo after a soft-delete. */
  action?: { label: string; run: () => void };
};
export type Notify = (notice: Notice | null) => void;

/**
 * Runs a mutation and reports its outcome in the drawer. Awaiting `mutateAsync` (instead of
 * `mutate`'s per-call callbacks) matters: a successful change refetches the user, which can
 * unmount the button that started it (Restore disappears once restored, the profile form is
 * re-keyed on the saved values), and TanStack Query drops per-call callbacks of an unmounted
 * observer — the outcome would silently never show.
 */
export async function reportOutcome<T>(
  notify: Notify,
  run: () => Promise<T>,
  success: (result: T) => Notice,
  failure: (error: unknown) => Notice,
): Promise<void> {
  notify(null);
  try {
    notify(success(await run()));
  } catch (error) {
    notify(failure(error));
  }
}
