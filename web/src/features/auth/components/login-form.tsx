import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { useLogin } from '../api/login';
import { postLoginDestination } from '../api/post-login-destination';
import { useVerifyTwoFactor } from '../api/verify-2fa';
import { loginErrorMessage, MISSING_CHALLENGE, verifyTwoFactorErrorMessage } from '../utils/error-messages';
import { CodeField } from './code-field';
import { LocalMailNote } from './local-mail-note';

/** Two steps (SPEC §2 Login, §4): email + password, then the emailed 6-digit code. */
export function LoginForm() {
  const navigate = useNavigate();
  const login = useLogin();
  const verify = useVerifyTwoFactor();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [routing, setRouting] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const step = challengeId === null ? 'credentials' : 'code';

  useEffect(() => {
    if (step === 'code') codeRef.current?.focus();
  }, [step]);

  const submitCredentials = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (response) => {
          if (!response?.challenge_id) {
            setError(MISSING_CHALLENGE);
            return;
          }
          // The password is not needed any more: do not keep it in memory.
          setPassword('');
          setCode('');
          setChallengeId(response.challenge_id);
        },
        onError: (failure) => setError(loginErrorMessage(failure)),
      },
    );
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!challengeId) {
      setError(MISSING_CHALLENGE);
      return;
    }
    verify.mutate(
      { email: email.trim(), code, challenge_id: challengeId },
      {
        onSuccess: async (result) => {
          setRouting(true);
          navigate(await postLoginDestination(result.user), { replace: true });
        },
        onError: (failure) => setError(verifyTwoFactorErrorMessage(failure)),
      },
    );
  };

  const restart = () => {
    setChallengeId(null);
    setCode('');
    setError(null);
  };

  if (step === 'code') {
    const busy = verify.isPending || routing;
    return (
      <form className="card form" onSubmit={submitCode} noValidate aria-labelledby="login-code-heading">
        <h2 id="login-code-heading">Enter your login code</h2>
        <p>We sent a 6-digit code to {email.trim()}. It expires in 10 minutes.</p>
        <LocalMailNote />
        <FormAlert>{error}</FormAlert>
        <CodeField ref={codeRef} label="2FA code" value={code} onChange={setCode} />
        <div className="form__actions">
          <Button type="submit" disabled={code.length === 0 || busy}>
            {busy ? 'Verifying…' : 'Verify and log in'}
          </Button>
          <Button variant="link" onClick={restart}>
            Start over
          </Button>
        </div>
      </form>
    );
  }

  return (
    <form className="card form" onSubmit={submitCredentials} noValidate aria-label="Log in">
      <FormAlert>{error}</FormAlert>
      <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        required
      />
      <div className="form__actions">
        <Button type="submit" disabled={login.isPending || !email.trim() || !password}>
          {login.isPending ? 'Logging in…' : 'Log in'}
        </Button>
        <Link to={paths.forgotPassword}>Forgot password?</Link>
      </div>
      <p>
        New here? <Link to={paths.register}>Register here</Link>
      </p>
    </form>
  );
}
