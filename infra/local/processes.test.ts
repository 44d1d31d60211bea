import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalRuntimeError, privateDir, startDynamoDbLocal, userCacheDir } from './processes';

const scratch = () => mkdtempSync(join(tmpdir(), 'local-processes-'));
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe("the launcher's cache folder", () => {
  it('is the user cache, not the shared temp folder', () => {
    expect(userCacheDir({ XDG_CACHE_HOME: '/home/ada/.cache-x' })).toBe('/home/ada/.cache-x');
    expect(userCacheDir({})).not.toContain(tmpdir());
  });

  it('is created 0700, and a folder of this user left open to others is closed', () => {
    const root = scratch();
    expect(modeOf(privateDir(join(root, 'a', 'b')))).toBe(0o700);
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    privateDir(open);
    expect(modeOf(open)).toBe(0o700);
  });

  it("refuses a folder of another user and a link put in the folder's place", () => {
    const root = scratch();
    const theirs = join(root, 'theirs');
    mkdirSync(theirs, { mode: 0o777 });
    chmodSync(theirs, 0o777);
    const otherUid = statSync(theirs).uid + 1;
    expect(() => privateDir(theirs, otherUid)).toThrow(LocalRuntimeError);
    expect(modeOf(theirs)).toBe(0o777);
    const link = join(root, 'link');
    symlinkSync(theirs, link);
    expect(() => privateDir(link)).toThrow(/is not a folder of this user/);
  });
});

describe('DynamoDB Local with a Java that cannot run the launcher', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('fails closed with a clear message instead of listening on every interface', async () => {
    // A Java runtime without javac and without the jdk.compiler module: it logs how it is run.
    const root = scratch();
    const bin = join(root, 'bin');
    const calls = join(root, 'calls.log');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'java'),
      `#!/bin/sh\necho "$@" >> '${calls}'\ncase "$1" in -version) exit 0;; --list-modules) echo java.base@17; exit 0;; esac\nexit 1\n`,
      { mode: 0o755 },
    );
    vi.stubEnv('PATH', bin);
    vi.stubEnv('XDG_CACHE_HOME', join(root, 'cache'));
    await expect(startDynamoDbLocal(20_000, undefined, '127.0.0.1')).rejects.toThrow(
      /cannot run the launcher that keeps DynamoDB Local on 127\.0\.0\.1.*listens on every interface\.\n {2}Install a full JDK/s,
    );
    // Asked which modules it has, never started.
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toEqual(['-version', '--list-modules']);
    // The cache it looked in is the user's own, private.
    expect(existsSync(join(root, 'cache', 'career-program'))).toBe(true);
    expect(modeOf(join(root, 'cache', 'career-program'))).toBe(0o700);
  });
});
