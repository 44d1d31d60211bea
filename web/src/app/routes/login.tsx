import { LoginForm } from '../../features/auth/components/login-form';

export default function LoginRoute() {
  return (
    <main className="page page--narrow">
      <h1>Log in</h1>
      <LoginForm />
    </main>
  );
}
