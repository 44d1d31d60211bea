import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order, with the browser suite (test/browser/suite.test.ts) first: it is the longest file
 * and mostly waits on Chromium and the local runtime, so it starts at once on one worker while the
 * other works through the shorter files of its group (vitest.config.ts `sequence.groupOrder`).
 */
export default class BrowserFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const browser = (file: TestSpecification) => file.project.name === 'browser';
    return [...sorted.filter(browser), ...sorted.filter((file) => !browser(file))];
  }
}
