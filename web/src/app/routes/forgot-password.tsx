import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form';

export default function ForgotPasswordRoute() {
  return (
    <main className="page page--narrow">
      <h1>Forgot password</h1>
      <ForgotPasswordForm />
    </main>
  );
}
