import { describe, expect, it } from 'vitest';
import { SIGNED_IN_HINT_COOKIE } from '@shared/constants';
import { mockFetch } from '../testing/mock-api';
import { getMe } from './auth';
import { holdsSignedInHint } from './signed-in-hint';

const user = { id: 'u1', email: 'ada@example.com', first_name: 'Ada', last_name: 'L', name: 'Ada L', role: 'learner', verified: true };

describe('getMe and the signed-in hint', () => {
  it('asks nothing when the browser holds no hint: an anonymous page logs no 401', async () => {
    const api = mockFetch({});
    expect(await getMe()).toBeNull();
    expect(api.calls).toEqual([]);
  });

  it('asks with the hint, and loads the user', async () => {
    const api = mockFetch({ 'GET /api/auth/me': { body: user } });
    expect(await getMe()).toEqual(user);
    expect(api.callsTo('GET /api/auth/me')).toHaveLength(1);
    expect(holdsSignedInHint()).toBe(true);
  });

  it('clears a stale hint after its one 401, so the next page asks nothing', async () => {
    const api = mockFetch({ 'GET /api/auth/me': { status: 401, body: { error: 'unauthorized' } } });
    expect(document.cookie).toContain(`${SIGNED_IN_HINT_COOKIE}=1`);
    expect(await getMe()).toBeNull();
    expect(holdsSignedInHint()).toBe(false);
    expect(await getMe()).toBeNull();
    expect(api.callsTo('GET /api/auth/me')).toHaveLength(1);
  });
});
