/**
 * The sign-in form's state (docs/product.md#4-states-and-transitions) as one reducer: which step
 * shows (credentials, emailed code, email verification, restore of a deleted account) follows
 * from it, and every transition is one named action instead of several setters that must agree.
 */
export interface LoginState {
  /** The emailed code's challenge, once the password step passed. */
  challengeId: string | null;
  code: string;
  error: string | null;
  notice: string | null;
  /** The code can no longer work (too many tries, expired): only a new code helps. */
  spent: boolean;
  /** The password was right but the email is not verified yet. */
  unverified: boolean;
  /** The right password of an account its owner deleted: the day it is erased ('' unknown); null otherwise. */
  deleted: string | null;
  /** Signed in; the next page is on its way. */
  routing: boolean;
}

export type LoginStep = 'credentials' | 'code' | 'verify' | 'restore';

export type LoginAction =
  | { type: 'request' }
  | { type: 'failed'; message: string; spent?: boolean }
  | { type: 'challenge'; challengeId: string; notice?: string }
  | { type: 'code_changed'; code: string }
  | { type: 'unverified' }
  | { type: 'deleted'; eraseAfter: string }
  | { type: 'verified'; notice: string }
  | { type: 'signed_in' }
  | { type: 'restart' };

export const initialLoginState: LoginState = {
  challengeId: null,
  code: '',
  error: null,
  notice: null,
  spent: false,
  unverified: false,
  deleted: null,
  routing: false,
};

export function loginReducer(state: LoginState, action: LoginAction): LoginState {
  switch (action.type) {
    case 'request':
      return { ...state, error: null, notice: null };
    case 'failed':
      return { ...state, error: action.message, spent: action.spent ?? state.spent };
    case 'challenge':
      // a new challenge: a fresh code with fresh tries
      return { ...state, challengeId: action.challengeId, code: '', spent: false, error: null, notice: action.notice ?? null };
    case 'code_changed':
      return { ...state, code: action.code };
    case 'unverified':
      return { ...state, unverified: true };
    case 'deleted':
      return { ...state, deleted: action.eraseAfter };
    case 'verified':
      return { ...state, unverified: false, error: null, notice: action.notice };
    case 'signed_in':
      return { ...state, routing: true };
    case 'restart':
      return initialLoginState;
  }
}

export const loginStepOf = (state: LoginState): LoginStep =>
  state.unverified ? 'verify' : state.deleted !== null ? 'restore' : state.challengeId === null ? 'credentials' : 'code';
