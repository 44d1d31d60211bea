import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web tests have one fetch mock: MSW, through web/src/testing/mock-api.ts. A test that
 * replaces `fetch` by hand bypasses it (and its unhandled-request check): none may.
 */
const webDir = join(import.meta.dirname, '..', '..', 'web', 'src');
const helpersDir = join(import.meta.dirname, '..', 'helpers');

// vi.stubGlobal('fetch', …), vi.spyOn(globalThis, 'fetch'), globalThis.fetch = …, window.fetch = …
const handStub = [
  /stubGlobal\(\s*['"`]fetch['"`]/,
  /spyOn\(\s*(globalThis|window|global|self)\s*,\s*['"`]fetch['"`]/,
  /\b(globalThis|window|global|self)\.fetch\s*=[^=]/,
  /\bObject\.defineProperty\(\s*(globalThis|window|global|self)\s*,\s*['"`]fetch['"`]/,
];

const sources = (dir: string) =>
  (readdirSync(dir, { recursive: true }) as string[]).filter((file) => /\.(ts|tsx)$/.test(file)).map((file) => join(dir, file));

describe('web tests mock the network one way', () => {
  it('the patterns catch a hand stub', () => {
    expect(handStub.some((pattern) => pattern.test("vi.stubGlobal('fetch', vi.fn())"))).toBe(true);
    expect(handStub.some((pattern) => pattern.test('globalThis.fetch = async () => new Response()'))).toBe(true);
    expect(handStub.some((pattern) => pattern.test("vi.spyOn(window, 'fetch')"))).toBe(true);
  });

  it('no web source or test helper stubs fetch by hand', () => {
    const files = [...sources(webDir), ...sources(helpersDir)];
    expect(files.some((file) => file.endsWith(join('testing', 'mock-api.ts')))).toBe(true);
    const offenders = files.filter((file) => handStub.some((pattern) => pattern.test(readFileSync(file, 'utf8'))));
    expect(offenders).toEqual([]);
  });
});
