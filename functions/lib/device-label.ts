import Bowser from 'bowser';

/**
 * A readable label for a User-Agent, such as "Chrome on Windows" (the session list and the
 * security notices). Unknown parts fall back to plain words; an empty agent is "Unknown device".
 */
export function deviceLabel(userAgent: string | undefined): string {
  const agent = (userAgent ?? '').trim();
  if (!agent) return 'Unknown device';
  const parsed = Bowser.parse(agent.slice(0, 512));
  const browser = parsed.browser.name;
  const os = parsed.os.name;
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  if (os) return `Unknown browser on ${os}`;
  return 'Unknown device';
}
