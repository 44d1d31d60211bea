import { describe, expect, it } from 'vitest';
import { hadSession, loginPath, markSignedIn, safeReturnPath, sessionEndedLogin } from './session-ended';

describe('safeReturnPath', () => {
  it('keeps a path of this site, with its query and hash', () => {
    expect(safeReturnPath('/modules/know-your-strengths?x=1#tasks')).toBe('/modules/know-your-strengths?x=1#tasks');
    expect(safeReturnPath('/dashboard')).toBe('/dashboard');
  });

  it('refuses anything that could leave the site (no open redirect)', () => {
    for (const raw of [
      'https://evil.example/',
      '//evil.example/path',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'dashboard',
      '/%0d%0aSet-Cookie',
      '/\u0000x',
      '',
      null,
      `/${'a'.repeat(3000)}`,
    ]) {
      const safe = safeReturnPath(raw);
      if (safe !== null) expect(new URL(safe, window.location.origin).origin).toBe(window.location.origin);
      if (raw !== '/%0d%0aSet-Cookie') expect(safe, String(raw)).toBeNull();
    }
  });

  it('never sends back to /login or /register', () => {
    expect(safeReturnPath('/login?next=/x')).toBeNull();
    expect(safeReturnPath('/register')).toBeNull();
  });
});

describe('loginPath', () => {
  it('carries the reason only when a session ended, and only a safe next', () => {
    expect(loginPath('/dashboard', true)).toBe('/login?reason=session_ended&next=%2Fdashboard');
    expect(loginPath('/settings', false)).toBe('/login?next=%2Fsettings');
    expect(loginPath('//evil.example', true)).toBe('/login?reason=session_ended');
    expect(loginPath('/', false)).toBe('/login');
  });
});

describe('sessionEndedLogin', () => {
  it('says why and where to come back, and leaves the flag for the login page (a render may be thrown away)', () => {
    window.history.replaceState(null, '', '/modules/know-your-strengths');
    markSignedIn();
    expect(sessionEndedLogin()).toBe('/login?reason=session_ended&next=%2Fmodules%2Fknow-your-strengths');
    expect(hadSession()).toBe(true);
    localStorage.clear();
    window.history.replaceState(null, '', '/');
  });
});
