import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInThisContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteCheckScript } from '../../infra/constructs/site-canary';
import { createApiGateway } from '../../infra/local/api-gateway';
import { createApiServer } from '../../infra/local/api-server';
import { loadGroupHandlers } from '../../infra/local/group-handlers';
import { closeServers } from '../helpers/api';

/**
 * The script the site canary runs (infra/canary/site-check.ts, bundled as the stack ships it),
 * against the local stand-in for CloudFront: it passes on the working site, and fails when the
 * API refuses CloudFront (no origin-verify header: what a rotated origin secret looks like).
 */
type CanaryHandler = () => Promise<string>;

const loadCanary = (): CanaryHandler => {
  const module = { exports: {} as { handler?: CanaryHandler } };
  const wrapped = runInThisContext(`(function (module, exports, require) {\n${siteCheckScript()}\n})`) as (
    m: typeof module,
    e: typeof module.exports,
    r: NodeRequire,
  ) => void;
  wrapped(module, module.exports, createRequire(import.meta.url));
  if (!module.exports.handler) throw new Error('the canary script exports no handler');
  return module.exports.handler;
};

const servers: Server[] = [];
const urls: { front: string; refusedByApi: string; noSite: string } = { front: '', refusedByApi: '', noSite: '' };
const listen = (server: Server) =>
  new Promise<string>((resolve) => {
    servers.push(server);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });

beforeAll(async () => {
  const staticDir = mkdtempSync(path.join(tmpdir(), 'canary-site-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Career Program</title><div id="root"></div>');
  const api = createApiGateway({ handlers: await loadGroupHandlers() });
  urls.front = await listen(createApiServer({ api, originSecret: process.env.ORIGIN_SECRET, staticDir }));
  urls.refusedByApi = await listen(createApiServer({ api, staticDir }));
  // a bucket without the built SPA: the stand-in answers 503 for the page
  urls.noSite = await listen(
    createApiServer({ api, originSecret: process.env.ORIGIN_SECRET, staticDir: mkdtempSync(path.join(tmpdir(), 'canary-empty-')) }),
  );
});
afterAll(() => closeServers(servers));

describe('the site canary script (docs/runbook.md#site-canary)', () => {
  const run = async (siteUrl: string) => {
    process.env.SITE_URL = siteUrl;
    try {
      return await loadCanary()();
    } finally {
      delete process.env.SITE_URL;
    }
  };

  it('passes every check on the working site: the page, the health check, the anonymous certificate check', async () => {
    await expect(run(urls.front)).resolves.toBe('passed: site, api-health, api-certificate-check');
  });

  it('fails the run when the API refuses CloudFront, naming each failed API check', async () => {
    const failure = run(urls.refusedByApi);
    await expect(failure).rejects.toThrow(/api-health \(\/api\/health\): status 403, expected 200/);
    await expect(failure).rejects.toThrow(/api-certificate-check \(\/api\/certificates\/0000-0000-0000\): status 403, expected 404/);
    await expect(failure).rejects.not.toThrow(/site \(\/\)/);
  });

  it('fails the run when the page is not the SPA', async () => {
    await expect(run(urls.noSite)).rejects.toThrow(/^site check failed: site \(\/\): status 503, expected 200$/);
  });
});
