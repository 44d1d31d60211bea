import { describe, expect, it } from 'vitest';
import { initialLoginState, loginReducer, loginStepOf, type LoginAction, type LoginState } from './login-state';

const run = (...actions: LoginAction[]): LoginState => actions.reduce(loginReducer, initialLoginState);

describe('the sign-in form state', () => {
  it('starts at the credentials and moves to the code step with a challenge', () => {
    expect(loginStepOf(initialLoginState)).toBe('credentials');
    const state = run({ type: 'request' }, { type: 'challenge', challengeId: 'ch-1' });
    expect(loginStepOf(state)).toBe('code');
    expect(state).toMatchObject({ challengeId: 'ch-1', code: '', spent: false, error: null, notice: null });
  });

  it('a failed check keeps the typed code and marks it spent only when told so; a new challenge clears both', () => {
    let state = run({ type: 'challenge', challengeId: 'ch-1' }, { type: 'code_changed', code: '123456' });
    state = loginReducer(state, { type: 'failed', message: 'This code no longer works — send a new one.', spent: true });
    expect(state).toMatchObject({ code: '123456', spent: true, error: 'This code no longer works — send a new one.' });
    // a failed resend says why and leaves the spent code spent
    state = loginReducer(state, { type: 'failed', message: 'Please wait a moment before trying again.' });
    expect(state.spent).toBe(true);
    state = loginReducer(state, { type: 'challenge', challengeId: 'ch-2', notice: 'We sent a new code to ada@example.com.' });
    expect(state).toMatchObject({
      challengeId: 'ch-2',
      code: '',
      spent: false,
      error: null,
      notice: 'We sent a new code to ada@example.com.',
    });
  });

  it('an unverified account shows the verify step until verified, then the credentials with a notice', () => {
    const unverified = run({ type: 'unverified' }, { type: 'failed', message: 'Please verify your email before logging in.' });
    expect(loginStepOf(unverified)).toBe('verify');
    const verified = loginReducer(unverified, { type: 'verified', notice: 'Your email is verified. You can now log in.' });
    expect(loginStepOf(verified)).toBe('credentials');
    expect(verified).toMatchObject({ error: null, notice: 'Your email is verified. You can now log in.' });
  });

  it('a self-deleted account shows the restore step, also with no erase date; start over returns to the beginning', () => {
    expect(loginStepOf(run({ type: 'deleted', eraseAfter: '' }))).toBe('restore');
    const state = run({ type: 'deleted', eraseAfter: '2026-12-01' }, { type: 'restart' });
    expect(state).toEqual(initialLoginState);
  });

  it('marks the sign-in done while the next page loads', () => {
    expect(run({ type: 'challenge', challengeId: 'ch-1' }, { type: 'signed_in' }).routing).toBe(true);
  });
});
