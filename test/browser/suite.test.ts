import { describe } from 'vitest';

/**
 * Every end-to-end file of test/e2e, each in its own `describe` (its hooks stay its own), one after
 * another in this one Vitest file: the journeys share one local runtime and must not run side by
 * side, but as one file they run beside the other projects' files instead of after them.
 */
const files = import.meta.glob('../e2e/**/*.test.ts');

for (const path of Object.keys(files).sort()) {
  describe(path.replace('../e2e/', ''), async () => {
    await files[path]();
  });
}
