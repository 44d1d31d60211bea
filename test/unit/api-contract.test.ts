import { describe, expect, it } from 'vitest';
import { contractProblems, type Exchange } from '../helpers/api-contract';

/**
 * The contract check every integration test's calls go through (test/helpers/api.ts,
 * docs/api.md#8-the-contract-test), against the served document: each kind of drift is named
 * with its operation and JSON pointer, and a call that holds passes.
 */
const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Omit<Exchange, 'method' | 'url'> => ({
  status,
  responseContentType: 'application/json',
  headers: new Headers({ 'content-type': 'application/json', ...headers }),
  body,
});
const healthy = { method: 'GET', url: '/api/health', ...json({ ok: true }) };

describe('the API contract check', () => {
  it('passes an answer the document describes, and ignores paths that are no operation', () => {
    expect(contractProblems(healthy)).toEqual([]);
    expect(contractProblems({ ...healthy, url: '/api/no-such-route', status: 404, body: { error: 'not_found' } })).toEqual([]);
    expect(contractProblems({ ...healthy, method: 'GET', url: '/login', responseContentType: 'text/html', body: '<html>' })).toEqual([]);
  });

  it('names an undocumented status, a body that does not match and an error code the status does not list', () => {
    expect(contractProblems({ ...healthy, status: 418 })).toEqual([
      expect.stringMatching(/^GET \/api\/health \(getHealth\) 418: status not documented/),
    ]);
    expect(contractProblems({ ...healthy, body: { ok: 'yes' } })).toEqual([
      expect.stringMatching(/GET \/api\/health \(getHealth\) 200: answer does not match .*responses\/200\/.* \/ok /),
    ]);
    expect(contractProblems({ method: 'GET', url: '/api/auth/me', ...json({ error: 'invalid_code' }, 401) })).toEqual([
      expect.stringMatching(
        /GET \/api\/auth\/me \(getAuthMe\) 401: answer does not match .* \/error must be equal to one of the allowed values/,
      ),
    ]);
  });

  it('picks the literal path before the template it also matches', () => {
    const csv = {
      method: 'GET',
      url: '/api/admin/users/export.csv?status=active',
      status: 200,
      body: 'id\n',
      responseContentType: 'text/csv',
    };
    expect(contractProblems({ ...csv, headers: new Headers({ 'content-type': 'text/csv', 'x-export-rows': '0' }) })).toEqual([]);
  });

  it('names an undocumented error detail and an undocumented header a client reads', () => {
    expect(contractProblems({ method: 'GET', url: '/api/auth/me', ...json({ error: 'unauthorized', hint: 'x' }, 401) })).toEqual([
      expect.stringMatching(/401: error detail \/hint not documented/),
    ]);
    expect(contractProblems({ ...healthy, headers: new Headers({ location: '/elsewhere' }) })).toEqual([
      expect.stringMatching(/GET \/api\/health \(getHealth\) 200: header location not documented/),
    ]);
    // documented ones pass: a wrong code's tries left, the challenge cookie of a sign-in
    expect(
      contractProblems({ method: 'POST', url: '/api/auth/verify-2fa', ...json({ error: 'invalid_code', attempts_left: 2 }, 400) }),
    ).toEqual([]);
  });

  it('holds an accepted request to the documented request body, in JSON or as the one-click form', () => {
    const accepted = (requestBody: string, requestContentType = 'application/json') => ({
      method: 'POST',
      url: '/api/enroll',
      requestBody,
      requestContentType,
      ...json({ message: 'Enrolled.' }),
    });
    expect(contractProblems(accepted('{"preview":true}'))).toEqual([]);
    expect(contractProblems(accepted(''))).toEqual([]);
    expect(contractProblems(accepted('{"preview":"yes"}'))).toEqual([
      expect.stringMatching(/accepted request does not match .*\/preview must be boolean/),
    ]);
    // a refused request is the test's own business (4xx cases send bad bodies on purpose)
    expect(contractProblems({ ...accepted('{"preview":"yes"}'), ...json({ error: 'invalid_request', fields: ['preview'] }, 400) })).toEqual(
      [],
    );
    // no documented body: only an empty one
    expect(
      contractProblems({ ...healthy, method: 'POST', url: '/api/auth/logout', requestBody: '{}', requestContentType: 'application/json' }),
    ).toEqual([]);
    expect(
      contractProblems({
        ...healthy,
        method: 'POST',
        url: '/api/auth/logout',
        requestBody: '{"all":true}',
        requestContentType: 'application/json',
      }),
    ).toEqual([expect.stringMatching(/the request has a body, the operation documents none/)]);
    const unsubscribe = { method: 'POST', url: '/api/notifications/unsubscribe?token=t', ...json({ reminder_frequency: 'off' }) };
    expect(
      contractProblems({
        ...unsubscribe,
        requestBody: 'List-Unsubscribe=One-Click',
        requestContentType: 'application/x-www-form-urlencoded',
      }),
    ).toEqual([]);
    expect(contractProblems({ ...unsubscribe, requestBody: 'other=1', requestContentType: 'application/x-www-form-urlencoded' })).toEqual([
      expect.stringMatching(/accepted request does not match .*x-www-form-urlencoded/),
    ]);
  });

  it("accepts API Gateway's own throttling answer on any operation", () => {
    expect(contractProblems({ ...healthy, ...json({ message: 'Too Many Requests' }, 429) })).toEqual([]);
  });
});
