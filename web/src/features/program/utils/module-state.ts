/**
 * A module state as a badge label: capitalised, 'Locked' when the server sent none (docs/product.md#2-screens-and-routes:
 * "a state badge (capitalised, default 'Locked')"). Unknown states are shown as they come.
 */
export function stateLabel(state: string | null | undefined): string {
  const text = (state ?? '').trim();
  if (!text) return 'Locked';
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}
