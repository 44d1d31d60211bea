/** docs/product.md#2-screens-and-routes: deleted shows a Deleted badge; otherwise the status, or locked/active from is_locked. */
export function userStatusLabel(status: string | null | undefined, isLocked: boolean | undefined): string {
  if (status === 'deleted') return 'Deleted';
  return status || (isLocked ? 'locked' : 'active');
}

export function StatusBadge({ status, isLocked }: { status: string | null | undefined; isLocked?: boolean }) {
  const label = userStatusLabel(status, isLocked);
  const tone = status === 'deleted' ? 'deleted' : label === 'locked' ? 'locked' : 'neutral';
  return <span className={`admin-badge admin-badge--${tone}`}>{label}</span>;
}
