import { describe, expect, it } from 'vitest';
import { createLocalExportFiles, LOCAL_EXPORT_PATH } from './export-files';

describe('the local export files (the export bucket and its presigned links, locally)', () => {
  it('serves a file once, as an attachment, and not after its link expired', async () => {
    let now = Date.parse('2026-11-26T10:00:00Z');
    const files = createLocalExportFiles(() => now);
    const expiresAt = new Date(now + 300_000);
    const first = await files.store.put('exports/a.json', Buffer.from('{"a":1}'), 'data.json', expiresAt);
    const second = await files.store.put('exports/b.json', Buffer.from('{"b":2}'), 'data.json', expiresAt);
    expect(first.startsWith(LOCAL_EXPORT_PATH)).toBe(true);
    expect(second).not.toBe(first);

    const served = await files.serveOnce(first);
    expect(served.status).toBe(200);
    expect(served.headers['content-disposition']).toBe('attachment; filename="data.json"');
    expect(served.body.toString()).toBe('{"a":1}');
    expect((await files.serveOnce(first)).status).toBe(404);

    now = expiresAt.getTime();
    expect((await files.serveOnce(second)).status).toBe(404);
    expect((await files.serveOnce(`${LOCAL_EXPORT_PATH}unknown`)).status).toBe(404);
  });
});
