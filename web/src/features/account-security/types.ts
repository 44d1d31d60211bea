/** Shapes of the account security endpoints (docs/account-security.md). */
export interface SessionItem {
  id: string;
  current: boolean;
  created_at: string;
  last_seen_at: string;
  ip: string;
  user_agent: string;
  device: string;
}

export interface PasskeyItem {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  backed_up: boolean;
}
