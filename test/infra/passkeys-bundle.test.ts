import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAN_BUNDLING, PASSKEYS_BUNDLING, WEBAUTHN_ASN1_LITE, WEBAUTHN_CERTIFICATE_PACKAGES } from '../../infra/constructs/app-function';
import { REPO_ROOT } from '../helpers/lambda-bundles';
import { itRunsTheCeremonies, type WebauthnModule } from '../helpers/webauthn-ceremonies';

/**
 * The passkeys Lambda leaves @simplewebauthn/server's certificate parsers out of its bundle
 * (PASSKEYS_BUNDLING, docs/lean-builds.md). This bundles functions/accounts/webauthn.ts with the
 * function's esbuild options and aliases, then runs every ceremony of
 * functions/accounts/webauthn.test.ts through the bundle: the same results as the real packages.
 */
let dir: string;
let bundled: WebauthnModule;
let metafile: Metafile;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'passkeys-bundle-'));
  const aliases = PASSKEYS_BUNDLING.esbuildArgs['--alias'].map((arg) => arg.split(/=(.*)/s, 2) as [string, string]);
  const outfile = path.join(dir, 'webauthn.js');
  const result = await build({
    entryPoints: [path.join(REPO_ROOT, 'functions', 'accounts', 'webauthn.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: LEAN_BUNDLING.target,
    minify: LEAN_BUNDLING.minify,
    keepNames: LEAN_BUNDLING.keepNames,
    mainFields: LEAN_BUNDLING.mainFields,
    external: LEAN_BUNDLING.externalModules,
    alias: Object.fromEntries(aliases),
    metafile: true,
    logLevel: 'silent',
  });
  metafile = result.metafile;
  bundled = createRequire(import.meta.url)(outfile) as WebauthnModule;
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the passkeys bundle (certificate parsers aliased away)', () => {
  it('aliases every certificate package to functions/accounts/webauthn-asn1-lite.ts, and bundles none of them', () => {
    expect(PASSKEYS_BUNDLING.esbuildArgs['--alias']).toEqual(WEBAUTHN_CERTIFICATE_PACKAGES.map((name) => `${name}=${WEBAUTHN_ASN1_LITE}`));
    const inputs = Object.keys(metafile.inputs);
    expect(inputs).toContain(path.relative(process.cwd(), WEBAUTHN_ASN1_LITE));
    expect(inputs.some((file) => file.includes('node_modules/@simplewebauthn/server/'))).toBe(true);
    const heavy = inputs.filter((file) => /node_modules\/(@peculiar|asn1js|pvtsutils|pvutils|tsyringe|reflect-metadata)\//.test(file));
    expect(heavy).toEqual([]);
  });

  itRunsTheCeremonies(
    () => bundled,
    (fmt) => `refuses a "${fmt}" attestation with certificates, as the source does`,
  );
});
