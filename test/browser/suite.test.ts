import { describe } from 'vitest';
import { holdBrowser } from '../helpers/browser';

/**
 * Every end-to-end file of test/e2e, each in its own `describe` (its hooks stay its own), one after
 * another in this one Vitest file: the journeys share one local runtime and must not run side by
 * side, but as one file they run on one worker beside the other projects' files (vitest.config.ts
 * starts it first, beside the unit, web, infrastructure and runtime files; the integration files
 * follow) instead of in a one-worker lane at the end. They share one Chromium (`holdBrowser`).
 */
holdBrowser();

const files = import.meta.glob('../e2e/**/*.test.ts');

for (const path of Object.keys(files).sort()) {
  describe(path.replace('../e2e/', ''), async () => {
    await files[path]();
  });
}
