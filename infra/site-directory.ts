import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Where the built SPA is, for the CDK app and its build step alike: `web/dist`, or SITE_DIR
 * when set (the deploy rehearsal builds apart, leaving the web/dist that the local runtime
 * and the end-to-end tests serve untouched).
 */
export function siteDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return env.SITE_DIR ? path.resolve(env.SITE_DIR) : path.join(REPO_ROOT, 'web', 'dist');
}

/** The SPA's Vite configuration (web/vite.config.ts). */
export const VITE_CONFIG = path.join(REPO_ROOT, 'web', 'vite.config.ts');
