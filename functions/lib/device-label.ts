/**
 * A readable label for a User-Agent, such as "Chrome on Windows" (the session list and the
 * security notices). Unknown parts fall back to plain words; an empty agent is "Unknown device".
 *
 * A short ordered table rather than a UA-parsing library: the label only has to tell a person's
 * own devices apart, and a full parser (bowser, 36 KB) would cost every Lambda bundle a seventh
 * of its 250 KB budget (docs/lean-builds.md). Order matters: Edge and Opera also say "Chrome",
 * Chrome also says "Safari", iOS browsers all carry "Safari" and their own token.
 */
const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Microsoft Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\bChrome\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\/|\bSafari\/.*\bMobile\b/, 'Safari'],
  [/\bcurl\//, 'curl'],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'Chrome OS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (table: ReadonlyArray<[RegExp, string]>, agent: string) => table.find(([pattern]) => pattern.test(agent))?.[1];

export function deviceLabel(userAgent: string | undefined): string {
  const agent = (userAgent ?? '').trim().slice(0, 512);
  if (!agent) return 'Unknown device';
  const browser = first(BROWSERS, agent);
  const os = first(SYSTEMS, agent);
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  if (os) return `Unknown browser on ${os}`;
  return 'Unknown device';
}
