/** A drawer-wide message: the outcome of the last action, whichever tab started it. */
export type Notice = { tone: 'success' | 'info' | 'error'; text: string };
export type Notify = (notice: Notice | null) => void;
